import { AUTHENTICATED, ipWhitelistSchema } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

/**
 * The account's IP whitelist (console-spec §7 "Security"). Reading is open to every user of the
 * account; saving and switching belong to the owner and administrators (others are refused before
 * any verification is asked of them) and need a recent verification. Enforcement is not here but
 * in the login and the session authenticator (core/ip-whitelist).
 */
export function ipWhitelistRoutes(app: FastifyInstance, core: Core): void {
  const whitelist = core.ipWhitelist;
  const verification = core.sensitiveVerification;
  const access = { access: AUTHENTICATED };

  for (const url of ['/v3/api/user/ipWhites', '/v3/api/user/listIPWhitelist']) {
    app.get(url, { config: access }, async (request) => ({ data: await whitelist.get(callerOf(request)) }));
  }

  app.post('/v3/api/user/saveIPWhitelist', { config: access }, async (request) => {
    const { ips } = ipWhitelistSchema.parse(request.body);
    const session = callerOf(request);
    await whitelist.requireManager(session);
    await verification.requireRecentVerification(session, { always: true });
    return { data: await whitelist.save(session, ips, request.ip) };
  });

  for (const [path, enabled] of [
    ['open', true],
    ['close', false],
  ] as const) {
    app.post(`/v3/api/user/ipWhites/${path}`, { config: access }, async (request) => {
      const session = callerOf(request);
      await whitelist.requireManager(session);
      await verification.requireRecentVerification(session, { always: true });
      return { data: await whitelist.setEnabled(session, enabled, request.ip) };
    });
  }
}
