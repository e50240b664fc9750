import { labelIdSchema, labelInputSchema, PERMISSIONS } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const SETTINGS = { access: PERMISSIONS.EMAIL_SETTINGS };
const idParam = z.object({ id: labelIdSchema });
const listQuery = z.object({ query: z.string().trim().max(255).optional() });

/** Labels (console-spec §7 "/config/labels (CRUD, combobox)"), under code 13. */
export function labelsRoutes(app: FastifyInstance, core: Core): void {
  const labels = core.labels;

  app.get('/v3/api/config/labels', { config: SETTINGS }, async (request) => ({
    data: (await labels.list(callerOf(request), listQuery.parse(request.query))).labels,
  }));

  app.get('/v3/api/config/labels/combobox', { config: SETTINGS }, async (request) => ({
    data: (await labels.list(callerOf(request))).labels.map((l) => ({ value: l.id, label: l.name })),
  }));

  app.get('/v3/api/config/labels/:id', { config: SETTINGS }, async (request) => ({
    data: await labels.get(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post('/v3/api/config/labels', { config: SETTINGS }, async (request, reply) => {
    const input = labelInputSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await labels.create(callerOf(request), input) });
  });

  app.patch('/v3/api/config/labels/:id', { config: SETTINGS }, async (request) => {
    const { id } = idParam.parse(request.params);
    return { data: await labels.rename(callerOf(request), id, labelInputSchema.parse(request.body ?? {})) };
  });

  app.delete('/v3/api/config/labels/:id', { config: SETTINGS }, async (request, reply) => {
    await labels.remove(callerOf(request), idParam.parse(request.params).id);
    return reply.status(204).send();
  });
}
