import { PERMISSIONS, webhookIdSchema } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const SETTINGS = { access: PERMISSIONS.SMS_SETTINGS };
const idParam = z.object({ id: webhookIdSchema });

/**
 * SMSHooks (console-spec §7 `/sms/smshooks`, screen `/s_sendSetting/smsHook`, code 19): list, add
 * (the URL probed), edit, delete, a new app key, a test push and the refresh of an unavailable one.
 */
export function smsHooksRoutes(app: FastifyInstance, core: Core): void {
  const hooks = core.smsHooks;
  const base = '/v3/api/sms/smshooks';

  app.get(base, { config: SETTINGS }, async (request) => ({ data: await hooks.list(callerOf(request)) }));

  app.post(base, { config: SETTINGS }, async (request, reply) =>
    reply.status(201).send({ data: await hooks.create(callerOf(request), request.body ?? {}) }),
  );

  app.put(`${base}/:id`, { config: SETTINGS }, async (request) => ({
    data: await hooks.update(callerOf(request), idParam.parse(request.params).id, request.body ?? {}),
  }));

  app.delete(`${base}/:id`, { config: SETTINGS }, async (request, reply) => {
    await hooks.remove(callerOf(request), idParam.parse(request.params).id);
    return reply.status(204).send();
  });

  app.post(`${base}/:id/appKey`, { config: SETTINGS }, async (request) => ({
    data: await hooks.generateAppKey(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post(`${base}/:id/test`, { config: SETTINGS }, async (request) => ({
    data: await hooks.test(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post(`${base}/:id/refresh`, { config: SETTINGS }, async (request) => ({
    data: await hooks.refresh(callerOf(request), idParam.parse(request.params).id),
  }));
}
