import { AUTHENTICATED, PUBLIC } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';
import { sessionTokenOf } from '../plugins/session-auth.ts';
import { clearSessionCookies } from '../session-cookies.ts';

/** The logged-in user: who they are, what they may open, their balance, and logout. */
export function userInfoRoutes(app: FastifyInstance, core: Core): void {
  app.get('/v3/api/userInfo', { config: { access: AUTHENTICATED } }, async (request) => ({
    data: await core.users.info(callerOf(request)),
  }));

  app.get('/v3/api/userInfo/userBalance', { config: { access: AUTHENTICATED } }, async (request) => ({
    data: await core.users.balance(callerOf(request)),
  }));

  app.get('/v3/api/user/member/permissions', { config: { access: AUTHENTICATED } }, async (request) => ({
    data: await core.users.menuPermissions(callerOf(request)),
  }));

  app.post('/v3/api/loginOut', { config: { access: PUBLIC } }, async (request, reply) => {
    const token = sessionTokenOf(request);
    if (token) await core.sessions.revoke(token);
    clearSessionCookies(reply);
    return { success: true };
  });
}
