import type { FastifyRequest } from 'fastify';
import type { Caller } from '../../core/context.ts';
import type { SessionsService } from '../../core/sessions/sessions.service.ts';
import type { Authenticator } from './access.ts';

/**
 * API clients send `Authorization: <tokenType> <token>` (console-spec §7); the console's calls
 * carry the httpOnly `token` cookie instead (session-cookies.ts), which counts when the header is
 * absent.
 */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header) {
    const match = /^\w+\s+(\S+)$/.exec(header);
    if (match) return match[1];
  }
  return request.cookies?.token || undefined;
}

/** The account's IP whitelist (core/ip-whitelist): throws IP_NOT_WHITELISTED for a refused address. */
export interface AddressGuard {
  requireAllowed(caller: Caller, ip: string): Promise<void>;
}

/**
 * Every authenticated call passes here, so the IP whitelist is enforced once for all routes: a
 * live session of an account whose whitelist is on is refused from any address outside it.
 */
export function sessionAuthenticator(sessions: SessionsService, addresses?: AddressGuard): Authenticator {
  return async (request) => {
    const token = sessionTokenOf(request);
    const principal = token ? await sessions.authenticate(token) : null;
    if (principal && addresses) await addresses.requireAllowed(principal, request.ip);
    return principal;
  };
}
