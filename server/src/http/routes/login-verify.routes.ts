import {
  AUTHENTICATED,
  type LoginVerifyAnswer,
  loginVerifySchema,
  loginVerifyTokenSchema,
  PUBLIC,
} from '@herald/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';
import type { RouteRateLimit } from '../plugins/rate-limit.ts';
import { sendSessionToken } from '../session-cookies.ts';
import { PROTECT_VERIFY_COOKIE, PROTECT_VERIFY_PATH } from './oauth.routes.ts';

const MINUTE = 60_000;
const INFO: RouteRateLimit = { bucket: 'loginVerify.info', limit: 30, windowMs: MINUTE };
const SENDS: RouteRateLimit = { bucket: 'loginVerify.send', limit: 10, windowMs: MINUTE };
const CHECKS: RouteRateLimit = { bucket: 'loginVerify.check', limit: 20, windowMs: MINUTE };

/**
 * The pending-login token: in the body, the `x-verify-token` header, or the HttpOnly cookie the
 * password step set. Never in the query string, which access logs keep.
 */
function verifyTokenOf(request: FastifyRequest): string | undefined {
  const { verifyToken } = loginVerifyTokenSchema.parse(request.body ?? {});
  const header = request.headers['x-verify-token'];
  return (
    verifyToken ||
    (typeof header === 'string' ? header : undefined) ||
    request.cookies?.[PROTECT_VERIFY_COOKIE]
  );
}

/**
 * The second step of a protected login (console-spec §2 /user/loginProtect, §7 loginVerify),
 * under /v3 like the login itself. Public: these calls authenticate by the pending-login token
 * the password step handed out, not by a session. Success answers exactly as the password login
 * does (token in the body and the session cookies), plus `firstProtectedLogin`.
 */
export function loginVerifyRoutes(app: FastifyInstance, core: Core): void {
  const verification = core.loginVerification;

  app.get(PROTECT_VERIFY_PATH, { config: { access: PUBLIC, rateLimit: INFO } }, async (request) => ({
    data: await verification.info(verifyTokenOf(request), request.ip),
  }));

  for (const [path, way] of [
    ['sendSmsCode', 'sms'],
    ['sendEmailCode', 'email'],
  ] as const) {
    app.post(
      `${PROTECT_VERIFY_PATH}/${path}`,
      { config: { access: PUBLIC, rateLimit: SENDS } },
      async (request) => ({
        data: await verification.sendCode(verifyTokenOf(request), request.ip, way, request.lang),
      }),
    );
  }

  app.post(PROTECT_VERIFY_PATH, { config: { access: PUBLIC, rateLimit: CHECKS } }, async (request, reply) => {
    const { way, code } = loginVerifySchema.parse(request.body);
    const result = await verification.verify(
      verifyTokenOf(request),
      { ip: request.ip, userAgent: request.headers['user-agent'] },
      way,
      code,
    );
    reply.clearCookie(PROTECT_VERIFY_COOKIE, { path: PROTECT_VERIFY_PATH });
    const body = sendSessionToken(request, reply, result.token);
    const answer: LoginVerifyAnswer = { ...body.data, firstProtectedLogin: result.firstProtectedLogin };
    return { data: answer };
  });

  app.post(
    `${PROTECT_VERIFY_PATH}/firstLoginSuccess`,
    { config: { access: AUTHENTICATED } },
    async (request) => ({
      data: await verification.acknowledgeFirstLogin(callerOf(request)),
    }),
  );
}
