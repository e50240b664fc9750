import {
  PERMISSIONS,
  smsClickDataQuerySchema,
  smsLinkClickQuerySchema,
  smsLinkSettingSchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

/**
 * SMS link tracking in the console: the switch (`/s_sendSetting/track`, `/sms/shortLink`, code
 * 19), each click (`/s_sendResponse/linkClick`, code 17) and clicks per day
 * (`/s_data/clickData`, `/sms/clickDatas`, code 16).
 */
export function smsLinksRoutes(app: FastifyInstance, core: Core): void {
  app.get('/v3/api/sms/shortLink', { config: { access: PERMISSIONS.SMS_SETTINGS } }, async (request) => ({
    data: await core.smsLinks.getSetting(callerOf(request)),
  }));

  app.put('/v3/api/sms/shortLink', { config: { access: PERMISSIONS.SMS_SETTINGS } }, async (request) => {
    const input = smsLinkSettingSchema.parse(request.body ?? {});
    return { data: await core.smsLinks.setSetting(callerOf(request), input) };
  });

  app.get('/v3/api/sms/linkClicks', { config: { access: PERMISSIONS.SMS_RESPONSE } }, async (request) => {
    const q = smsLinkClickQuerySchema.parse(request.query ?? {});
    return { data: await core.smsLinks.clicks(callerOf(request), q) };
  });

  app.get('/v3/api/sms/clickDatas', { config: { access: PERMISSIONS.SMS_DATA } }, async (request) => {
    const q = smsClickDataQuerySchema.parse(request.query ?? {});
    return { data: await core.smsLinks.days(callerOf(request), q.startTime, q.endTime) };
  });
}
