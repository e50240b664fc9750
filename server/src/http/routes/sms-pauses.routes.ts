import { PERMISSIONS, smsPauseQuerySchema } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const idParam = z.object({ id: z.coerce.number().int().positive() });

/**
 * Anti-bombing template pauses (`/sms/suspend`, on `/s_sendSetting/attack`, code 19): the pause
 * records, continue and cancel; and the alert panel the dashboards show (code 20, the
 * dashboard's own).
 */
export function smsPausesRoutes(app: FastifyInstance, core: Core): void {
  app.get('/v3/api/sms/suspend', { config: { access: PERMISSIONS.SMS_SETTINGS } }, async (request) => {
    const q = smsPauseQuerySchema.parse(request.query ?? {});
    return { data: await core.smsPauses.list(callerOf(request), q) };
  });

  app.get('/v3/api/sms/suspend/alerts', { config: { access: PERMISSIONS.DASHBOARD } }, async (request) => ({
    data: await core.smsPauses.alerts(callerOf(request)),
  }));

  app.post(
    '/v3/api/sms/suspend/:id/continue',
    { config: { access: PERMISSIONS.SMS_SETTINGS } },
    async (request) => ({
      data: await core.smsPauses.continue(callerOf(request), idParam.parse(request.params).id),
    }),
  );

  app.post(
    '/v3/api/sms/suspend/:id/cancel',
    { config: { access: PERMISSIONS.SMS_SETTINGS } },
    async (request) => ({
      data: await core.smsPauses.cancel(callerOf(request), idParam.parse(request.params).id),
    }),
  );
}
