import { PERMISSIONS, webhookIdSchema } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const SETTINGS = { access: PERMISSIONS.EMAIL_SETTINGS };
const idParam = z.object({ id: webhookIdSchema });
const deliveryParam = z.object({ id: webhookIdSchema, deliveryId: webhookIdSchema });
const appKeyBody = z.object({ id: webhookIdSchema.optional() });

/**
 * Webhooks (console-spec §7 "/config/webhooks (CRUD, appKey, test, refresh)"), under code 13,
 * plus the delivery log of each webhook with replay.
 */
export function webhooksRoutes(app: FastifyInstance, core: Core): void {
  const webhooks = core.webhooks;

  app.get('/v3/api/config/webhooks', { config: SETTINGS }, async (request) => ({
    data: await webhooks.list(callerOf(request)),
  }));

  app.post('/v3/api/config/webhooks', { config: SETTINGS }, async (request, reply) =>
    reply.status(201).send({ data: await webhooks.create(callerOf(request), request.body ?? {}) }),
  );

  app.post('/v3/api/config/webhooks/appKey', { config: SETTINGS }, async (request) => {
    const { id } = appKeyBody.parse(request.body ?? {});
    return { data: await webhooks.generateAppKey(callerOf(request), id) };
  });

  app.post('/v3/api/config/webhooks/test/:id', { config: SETTINGS }, async (request) => ({
    data: await webhooks.test(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post('/v3/api/config/webhooks/refresh/:id', { config: SETTINGS }, async (request) => ({
    data: await webhooks.refresh(callerOf(request), idParam.parse(request.params).id),
  }));

  app.get('/v3/api/config/webhooks/:id', { config: SETTINGS }, async (request) => ({
    data: await webhooks.get(callerOf(request), idParam.parse(request.params).id),
  }));

  app.patch('/v3/api/config/webhooks/:id', { config: SETTINGS }, async (request) => ({
    data: await webhooks.update(callerOf(request), idParam.parse(request.params).id, request.body ?? {}),
  }));

  app.delete('/v3/api/config/webhooks/:id', { config: SETTINGS }, async (request, reply) => {
    await webhooks.remove(callerOf(request), idParam.parse(request.params).id);
    return reply.status(204).send();
  });

  app.get('/v3/api/config/webhooks/:id/deliveries', { config: SETTINGS }, async (request) => ({
    data: await webhooks.deliveries(callerOf(request), idParam.parse(request.params).id, request.query ?? {}),
  }));

  app.post(
    '/v3/api/config/webhooks/:id/deliveries/:deliveryId/replay',
    { config: SETTINGS },
    async (request) => {
      const { id, deliveryId } = deliveryParam.parse(request.params);
      await webhooks.replay(callerOf(request), id, deliveryId);
      return { data: { queued: true } };
    },
  );
}
