import { PERMISSIONS, smsReplyDataQuerySchema, smsReplyQuerySchema } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

/**
 * Replies from handsets: the list (`/s_sendResponse/smsResponse`, code 17) and the replies and
 * opt-outs per day (`/s_data/replay`, code 16).
 */
export function smsRepliesRoutes(app: FastifyInstance, core: Core): void {
  app.get('/v3/api/sms/replies', { config: { access: PERMISSIONS.SMS_RESPONSE } }, async (request) => {
    const q = smsReplyQuerySchema.parse(request.query ?? {});
    return { data: await core.smsReplies.list(callerOf(request), q) };
  });

  app.get('/v3/api/sms/replyData', { config: { access: PERMISSIONS.SMS_DATA } }, async (request) => {
    const q = smsReplyDataQuerySchema.parse(request.query ?? {});
    return { data: await core.smsReplies.days(callerOf(request), q.startTime, q.endTime) };
  });
}
