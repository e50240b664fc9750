import { AUTHENTICATED, loginSchema, PUBLIC } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core/core.ts';
import { SESSION_IDLE_MS } from '../../core/sessions/sessions.service.ts';
import { ctxOf } from '../context.ts';

/**
 * Console login (`/v3/oauth/token`, console-spec §7) and the login log. The token comes back in
 * the body and in the cookies the console reads (`token`, `tokenType`); SameSite keeps them off
 * cross-site requests.
 */
export function oauthRoutes(app: FastifyInstance, core: Core): void {
  app.post('/v3/oauth/token', { config: { access: PUBLIC } }, async (request, reply) => {
    const { username, password, ...answers } = loginSchema.parse(request.body);
    const captcha = (await core.auth.needsCaptcha(username)) ? ('oauth' as const) : undefined;
    await core.humanCheck.require(answers, { slider: true, captcha });
    const { token } = await core.auth.login(username, password, {
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    });
    const cookie = {
      path: '/',
      sameSite: 'lax' as const,
      secure: request.protocol === 'https',
      maxAge: SESSION_IDLE_MS / 1000,
    };
    reply.setCookie('token', token, cookie);
    reply.setCookie('tokenType', 'Bearer', cookie);
    return { data: { token, tokenType: 'Bearer', expiresIn: SESSION_IDLE_MS / 1000 } };
  });

  app.get('/v3/api/user/config/loginLogs', { config: { access: AUTHENTICATED } }, async (request) => ({
    data: await core.auth.loginLog(ctxOf(request)),
  }));
}
