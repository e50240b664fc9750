import {
  AppError,
  AUTHENTICATED,
  PUBLIC,
  wechatBeforeLoginBindSchema,
  wechatCallbackQuerySchema,
  wechatStateQuerySchema,
} from '@herald/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Core } from '../../compose.ts';
import type { LoginOutcome } from '../../core/auth/auth.service.ts';
import { sameSecret } from '../../lib/same-secret.ts';
import { callerOf } from '../context.ts';
import type { RouteRateLimit } from '../plugins/rate-limit.ts';
import { sendSessionToken } from '../session-cookies.ts';
import { PROTECT_VERIFY_COOKIE, PROTECT_VERIFY_PATH } from './oauth.routes.ts';

const MINUTE = 60_000;
const STARTS: RouteRateLimit = { bucket: 'wechat.start', limit: 20, windowMs: MINUTE };
const CALLBACKS: RouteRateLimit = { bucket: 'wechat.callback', limit: 30, windowMs: MINUTE };
/** The console polls checkStat every second or two while the QR code is shown. */
const POLLS: RouteRateLimit = { bucket: 'wechat.checkStat', limit: 120, windowMs: MINUTE };
const BINDS: RouteRateLimit = { bucket: 'wechat.beforeLoginBind', limit: 10, windowMs: MINUTE };

const clientOf = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

/**
 * A login outcome as `/v3/oauth/token` answers it: the session (body and cookies), or the second
 * step's pending-login token (body and its HttpOnly cookie) with `verifyRequired`.
 */
function sendLogin(
  request: FastifyRequest,
  reply: FastifyReply,
  login: { token: string } | { verifyToken: string; ways: string[]; expiresIn: number },
) {
  if ('token' in login) return sendSessionToken(request, reply, login.token);
  reply.setCookie(PROTECT_VERIFY_COOKIE, login.verifyToken, {
    path: PROTECT_VERIFY_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: login.expiresIn,
  });
  return { data: { verifyRequired: true, ...login } };
}

const loginOf = (outcome: LoginOutcome) =>
  outcome.verifyRequired
    ? { verifyToken: outcome.verifyToken, ways: outcome.ways, expiresIn: outcome.expiresIn }
    : { token: outcome.token };

/**
 * WeChat quick login and binding (console-spec §2 /wxLoginCheck, /wxbind; §7 WeChat). Public
 * calls under /v3/access/wechat (they authenticate by the state), the logged-in user's binding
 * under /v3/api/wechat. The callback is WeChat's redirect_uri: it answers a redirect, never JSON.
 * Unbinding is `DELETE /v3/api/wechat/checkBind`, also reachable as `POST /v3/api/wechat/unbind`.
 */
/**
 * The state of a QR flow is held in an HttpOnly cookie of the browser that started it, and only
 * that browser may collect the outcome. Without it, someone who started a QR login could have
 * another person scan it and then collect that person's session with the state alone.
 */
const STATE_COOKIE = 'wechatState';

function holdState(request: FastifyRequest, reply: FastifyReply, state: string, expiresIn: number): void {
  reply.setCookie(STATE_COOKIE, state, {
    path: '/v3',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: expiresIn,
  });
}

function holdsState(request: FastifyRequest, state: string): boolean {
  return sameSecret(state, request.cookies?.[STATE_COOKIE] ?? '');
}

export function wechatRoutes(app: FastifyInstance, core: Core): void {
  const wechat = core.wechat;

  app.get(
    '/v3/access/wechat/quickLogin',
    { config: { access: PUBLIC, rateLimit: STARTS } },
    async (request, reply) => {
      const started = await wechat.start();
      holdState(request, reply, started.state, started.expiresIn);
      return { data: started };
    },
  );

  app.get(
    '/v3/access/wechat/callback',
    { config: { access: PUBLIC, rateLimit: CALLBACKS } },
    async (request, reply) => {
      const query = wechatCallbackQuerySchema.parse(request.query);
      reply.header('cache-control', 'no-store');
      return reply.redirect(await wechat.callback(query, clientOf(request)));
    },
  );

  app.get(
    '/v3/access/wechat/checkStat',
    { config: { access: PUBLIC, rateLimit: POLLS } },
    async (request, reply) => {
      const { state } = wechatStateQuerySchema.parse(request.query);
      // Another browser's state is, for this one, a QR code that is no more.
      if (wechat.enabled && !holdsState(request, state)) return { data: { status: 'expired' } };
      const result = await wechat.check(state);
      if (result.status === 'loggedIn') {
        return { data: { status: result.status, ...sendLogin(request, reply, result).data } };
      }
      if (result.status === 'verifyRequired') {
        const { status, ...login } = result;
        return { data: { status, ...sendLogin(request, reply, login).data } };
      }
      return { data: result };
    },
  );

  app.post(
    '/v3/access/wechat/beforeLoginBind',
    { config: { access: PUBLIC, rateLimit: BINDS } },
    async (request, reply) => {
      const input = wechatBeforeLoginBindSchema.parse(request.body);
      if (wechat.enabled && !holdsState(request, input.state)) throw new AppError('WECHAT_STATE_EXPIRED');
      const outcome = await wechat.beforeLoginBind(input, clientOf(request));
      return sendLogin(request, reply, loginOf(outcome));
    },
  );

  app.get('/v3/api/wechat/quickBind', { config: { access: AUTHENTICATED } }, async (request, reply) => {
    const started = await wechat.start(callerOf(request));
    holdState(request, reply, started.state, started.expiresIn);
    return { data: started };
  });

  app.get('/v3/api/wechat/checkBind', { config: { access: AUTHENTICATED } }, async (request) => ({
    data: await wechat.bindStatus(callerOf(request)),
  }));

  for (const [method, url] of [
    ['DELETE', '/v3/api/wechat/checkBind'],
    ['POST', '/v3/api/wechat/unbind'],
  ] as const) {
    app.route({
      method,
      url,
      config: { access: AUTHENTICATED },
      handler: async (request) => {
        await wechat.unbind(callerOf(request));
        return { data: await wechat.bindStatus(callerOf(request)) };
      },
    });
  }
}
