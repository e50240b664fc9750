import { PERMISSIONS, smsContentViewSchema } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

/** The SMS content view switch (`/s_sendSetting/smsContent`, `/sms/smsContent`, code 19). */
export function smsContentViewRoutes(app: FastifyInstance, core: Core): void {
  app.get('/v3/api/sms/smsContent', { config: { access: PERMISSIONS.SMS_SETTINGS } }, async (request) => ({
    data: await core.smsContentView.get(callerOf(request)),
  }));

  app.put('/v3/api/sms/smsContent', { config: { access: PERMISSIONS.SMS_SETTINGS } }, async (request) => {
    const input = smsContentViewSchema.parse(request.body ?? {});
    return { data: await core.smsContentView.set(callerOf(request), input) };
  });
}
