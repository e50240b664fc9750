import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_IDLE_MS } from '../core/sessions/sessions.service.ts';

/** What a call that logs the user in answers: the token the console also finds in its cookies. */
export interface SessionTokenBody {
  data: { token: string; tokenType: 'Bearer'; expiresIn: number };
}

/**
 * Hands a new console session to the browser: in the body and in the cookies the console reads
 * (`token`, `tokenType`); SameSite keeps them off cross-site requests. Used by every call that
 * ends in a login (password login, accepting a teammate invitation).
 */
export function sendSessionToken(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
): SessionTokenBody {
  const cookie = {
    path: '/',
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
    maxAge: SESSION_IDLE_MS / 1000,
  };
  reply.setCookie('token', token, cookie);
  reply.setCookie('tokenType', 'Bearer', cookie);
  return { data: { token, tokenType: 'Bearer', expiresIn: SESSION_IDLE_MS / 1000 } };
}
