import { PERMISSIONS } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const MESSAGES = { access: PERMISSIONS.MESSAGE_CENTRE };

/**
 * The message centre (console `accountSetting/messageCenter`, code 7; the header badge reads
 * `/userMessages/unReadCount`): the account's messages in the caller's language, newest first,
 * and marking them read.
 */
export function siteMessagesRoutes(app: FastifyInstance, core: Core): void {
  app.get('/v3/api/userMessages', { config: MESSAGES }, async (request) => ({
    data: await core.siteMessages.list(callerOf(request), request.query, request.lang),
  }));

  app.get('/v3/api/userMessages/unReadCount', { config: MESSAGES }, async (request) => ({
    data: { totalCount: await core.siteMessages.unreadCount(callerOf(request)) },
  }));

  app.post('/v3/api/userMessages/read', { config: MESSAGES }, async (request) => ({
    data: { totalCount: await core.siteMessages.markRead(callerOf(request), request.body) },
  }));
}
