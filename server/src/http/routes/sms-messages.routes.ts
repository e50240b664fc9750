import {
  PERMISSIONS,
  parseMobile,
  smsDataQuerySchema,
  smsFrequencyLimitSchema,
  smsStatusQuerySchema,
  smsTestSendSchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

/**
 * SMS in the console: the test send (`/s_sendRelative/test`, code 18) with what its form
 * chooses from, and the status of each SMS (`/s_sendResponse/smsStatus`, code 17) over at most
 * a month.
 */
export function smsMessagesRoutes(app: FastifyInstance, core: Core): void {
  app.get('/v3/api/sms/test/options', { config: { access: PERMISSIONS.SMS_SEND } }, async (request) => ({
    data: await core.smsTestSend.options(callerOf(request)),
  }));

  app.post('/v3/api/sms/test', { config: { access: PERMISSIONS.SMS_SEND } }, async (request) => {
    const input = smsTestSendSchema.parse(request.body ?? {});
    return { data: await core.smsTestSend.send(callerOf(request), input, request.lang) };
  });

  // Anti-bombing (`/s_sendSetting/attack`, code 19): the per-number limits per minute and per day.
  app.get(
    '/v3/api/sms/smsFrequencyLimit',
    { config: { access: PERMISSIONS.SMS_SETTINGS } },
    async (request) => ({
      data: await core.smsProtection.get(callerOf(request)),
    }),
  );

  app.put(
    '/v3/api/sms/smsFrequencyLimit',
    { config: { access: PERMISSIONS.SMS_SETTINGS } },
    async (request) => {
      const input = smsFrequencyLimitSchema.parse(request.body ?? {});
      return { data: await core.smsProtection.set(callerOf(request), input) };
    },
  );

  // SMS send data (`/s_data/s_send`, code 16): per day, totals and failures by reason.
  app.get('/v3/api/sms/smsData', { config: { access: PERMISSIONS.SMS_DATA } }, async (request) => {
    const q = smsDataQuerySchema.parse(request.query ?? {});
    return { data: await core.smsMessages.summary(callerOf(request), q.startTime, q.endTime + 1) };
  });

  app.get('/v3/api/sms/smsStatus', { config: { access: PERMISSIONS.SMS_RESPONSE } }, async (request) => {
    const q = smsStatusQuerySchema.parse(request.query ?? {});
    const { total, items } = await core.smsMessages.query(
      callerOf(request),
      {
        phones: q.phone ? [parseMobile(q.phone)?.e164 ?? q.phone] : undefined,
        smsIds: q.smsId ? [q.smsId] : undefined,
        status: q.status,
        msgType: q.msgType,
        labelId: q.labelId,
        from: q.startTime,
        to: q.endTime + 1,
        start: (q.page - 1) * q.pageSize,
        limit: q.pageSize,
      },
      { content: true },
    );
    return {
      data: items.map(({ country: _country, templateId: _templateId, ...row }) => row),
      total,
    };
  });
}
