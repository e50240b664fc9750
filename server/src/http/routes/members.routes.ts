import {
  inviteTokenSchema,
  memberAcceptSchema,
  memberIdSchema,
  memberInviteSchema,
  memberUpdateSchema,
  PERMISSION_CATALOGUE,
  PERMISSIONS,
  PUBLIC,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';
import type { RouteRateLimit } from '../plugins/rate-limit.ts';
import { sendSessionToken } from '../session-cookies.ts';

const TEAMMATES = { access: PERMISSIONS.TEAMMATES };
const INVITE_RATE: RouteRateLimit = { bucket: 'member.invite', limit: 60, windowMs: 60_000 };
const INVITE_LINK = { access: PUBLIC, rateLimit: INVITE_RATE };
const idParam = z.object({ id: memberIdSchema });
const userIdParam = z.object({ userId: memberIdSchema });

/**
 * Teammates (console-spec §7 "Members"), all under code 2: members holding it at read (custom
 * teammates, visitors) may look, only the owner and administrators may change. The invitation
 * link's two calls are public: the invitee has no login yet.
 */
export function membersRoutes(app: FastifyInstance, core: Core): void {
  const members = core.members;

  app.get('/v3/api/user/member', { config: TEAMMATES }, async (request) => ({
    data: await members.list(callerOf(request)),
  }));

  app.get('/v3/api/user/member/detail/:id', { config: TEAMMATES }, async (request) => ({
    data: await members.detail(callerOf(request), idParam.parse(request.params).id),
  }));

  app.get('/v3/api/user/member/permissions/all', { config: TEAMMATES }, async () => ({
    data: PERMISSION_CATALOGUE,
  }));

  app.post('/v3/api/user/member', { config: TEAMMATES }, async (request, reply) => {
    const input = memberInviteSchema.parse(request.body);
    return reply.status(201).send({ data: await members.invite(callerOf(request), input, request.lang) });
  });

  app.patch('/v3/api/user/member', { config: TEAMMATES }, async (request) => ({
    data: await members.update(callerOf(request), memberUpdateSchema.parse(request.body)),
  }));

  app.delete('/v3/api/user/member/:userId', { config: TEAMMATES }, async (request, reply) => {
    await members.remove(callerOf(request), userIdParam.parse(request.params).userId);
    return reply.status(204).send();
  });

  app.post('/v3/api/user/member/reSend/inviteUrl/:userId', { config: TEAMMATES }, async (request, reply) => {
    await members.resendInvite(callerOf(request), userIdParam.parse(request.params).userId, request.lang);
    return reply.status(201).send({ success: true });
  });

  app.get('/v3/access/member/invite', { config: INVITE_LINK }, async (request) => {
    const { token } = z.object({ token: inviteTokenSchema }).parse(request.query);
    return { data: await members.invitations.show(token) };
  });

  app.post('/v3/access/member/invite', { config: INVITE_LINK }, async (request, reply) => {
    const input = memberAcceptSchema.parse(request.body);
    const { token } = await members.invitations.accept(input, {
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    });
    return sendSessionToken(request, reply, token);
  });
}
