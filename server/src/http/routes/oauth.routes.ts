import { AUTHENTICATED, type LoginAnswer, loginSchema, PUBLIC } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';
import { sendSessionToken } from '../session-cookies.ts';

/** Cookie holding the pending-login token of a protected login, read by /v3/user/loginVerify. */
export const PROTECT_VERIFY_COOKIE = 'protectVerify';
export const PROTECT_VERIFY_PATH = '/v3/user/loginVerify';

/**
 * Console login (`/v3/oauth/token`, console-spec §7) and the login log. The token comes back in
 * the body and in the cookies the console reads (see session-cookies.ts). A login that login
 * protection stops answers 200 with `verifyRequired`, the ways and a pending-login token (also in
 * an HttpOnly cookie scoped to the second step) and sets no session cookie: the session comes from
 * `POST /v3/user/loginVerify` (login-verify.routes.ts).
 */
export function oauthRoutes(app: FastifyInstance, core: Core): void {
  app.post(
    '/v3/oauth/token',
    { config: { access: PUBLIC, rateLimit: { bucket: 'login', limit: 60, windowMs: 60_000 } } },
    async (request, reply) => {
      const { username, password, ...answers } = loginSchema.parse(request.body);
      const captcha = (await core.auth.needsCaptcha(username)) ? ('oauth' as const) : undefined;
      await core.humanCheck.require(answers, { slider: true, captcha });
      const outcome = await core.auth.login(username, password, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      if (outcome.verifyRequired) {
        const { verifyToken, ways, expiresIn } = outcome;
        reply.setCookie(PROTECT_VERIFY_COOKIE, verifyToken, {
          path: PROTECT_VERIFY_PATH,
          httpOnly: true,
          sameSite: 'strict',
          secure: request.protocol === 'https',
          maxAge: expiresIn,
        });
        const answer: LoginAnswer = { verifyRequired: true, ways, verifyToken, expiresIn };
        return { data: answer };
      }
      return sendSessionToken(request, reply, outcome.token);
    },
  );

  app.get('/v3/api/user/config/loginLogs', { config: { access: AUTHENTICATED } }, async (request) => ({
    data: await core.auth.loginLog(callerOf(request)),
  }));
}
