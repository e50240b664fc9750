import { mailRouteCodeSchema, mailRouteInputSchema, PERMISSIONS } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const SETTINGS = { access: PERMISSIONS.EMAIL_SETTINGS };
const idParam = z.object({ id: z.coerce.number().int().positive() });

/**
 * Receive routes (`/config/routes`, code 13): list, create (a URL, or a mailbox with the code it
 * received from `verifyCode`), delete.
 */
export function mailRoutesRoutes(app: FastifyInstance, core: Core): void {
  app.get('/v3/api/config/routes', { config: SETTINGS }, async (request) => ({
    data: await core.mailRoutes.list(callerOf(request)),
  }));

  app.post('/v3/api/config/routes', { config: SETTINGS }, async (request, reply) => {
    const input = mailRouteInputSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await core.mailRoutes.create(callerOf(request), input) });
  });

  app.delete('/v3/api/config/routes/:id', { config: SETTINGS }, async (request, reply) => {
    await core.mailRoutes.remove(callerOf(request), idParam.parse(request.params).id);
    return reply.status(204).send();
  });

  app.post('/v3/api/config/routes/verifyCode', { config: SETTINGS }, async (request) => {
    const { email } = mailRouteCodeSchema.parse(request.body ?? {});
    await core.mailRoutes.sendCode(callerOf(request), email);
    return { data: { sent: true } };
  });
}
