import { PERMISSIONS } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const MESSAGES = { access: PERMISSIONS.MESSAGE_CENTRE };
const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/**
 * The message centre (console `accountSetting/messageCenter`, code 7; the header badge reads
 * `/userMessages/unReadCount`): the account's messages in the caller's language, newest first,
 * and marking them read; the message settings (`messageCenter/setMessage`): which categories are
 * also mailed and texted, and the notifiers they go to.
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

  app.get('/v3/api/messageSettings', { config: MESSAGES }, async (request) => ({
    data: await core.siteMessages.settings(callerOf(request)),
  }));

  app.post('/v3/api/messageSettings', { config: MESSAGES }, async (request) => ({
    data: await core.siteMessages.saveSetting(callerOf(request), request.body),
  }));

  app.post('/v3/api/messageSettings/notifiers', { config: MESSAGES }, async (request, reply) =>
    reply.status(201).send({ data: await core.siteMessages.addNotifier(callerOf(request), request.body) }),
  );

  app.delete('/v3/api/messageSettings/notifiers/:id', { config: MESSAGES }, async (request) => ({
    data: await core.siteMessages.removeNotifier(callerOf(request), idParam.parse(request.params).id),
  }));
}
