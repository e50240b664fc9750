import type { FastifyRequest } from 'fastify';
import type { SessionsService } from '../../core/sessions/sessions.service.ts';
import type { Authenticator } from './access.ts';

/**
 * The console sends `Authorization: <tokenType> <token>` (console-spec §7); the `token` cookie it
 * also keeps is accepted when the header is absent, since requests carry credentials.
 */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header) {
    const match = /^\w+\s+(\S+)$/.exec(header);
    if (match) return match[1];
  }
  return request.cookies?.token || undefined;
}

export function sessionAuthenticator(sessions: SessionsService): Authenticator {
  return async (request) => {
    const token = sessionTokenOf(request);
    return token ? sessions.authenticate(token) : null;
  };
}
