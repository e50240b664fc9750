import { randomBytes } from 'node:crypto';
import type { SessionToken } from '@herald/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_IDLE_MS } from '../core/sessions/sessions.service.ts';

/** What a call that logs the user in answers (for API clients; the console uses the cookies). */
export interface SessionTokenBody {
  data: SessionToken;
}

/**
 * The console's cookies of a session. `token` carries the credential and is httpOnly: a script in
 * the page (an injected one too) cannot read it, and the browser sends it with every console call.
 * `tokenType` and `loginId` are for the console's script: that someone is logged in, and which
 * login it is (a random marker, worth nothing as a credential).
 */
export const SESSION_COOKIES = ['token', 'tokenType', 'loginId'] as const;

/**
 * Hands a new console session to the browser, in the cookies above; SameSite keeps them off
 * cross-site requests, and the browser-safety plugin refuses cross-site mutations. Used by every
 * call that ends in a login (password login, second step, WeChat, accepting an invitation).
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
  reply.setCookie('token', token, { ...cookie, httpOnly: true });
  reply.setCookie('tokenType', 'Bearer', cookie);
  reply.setCookie('loginId', randomBytes(9).toString('base64url'), cookie);
  return { data: { token, tokenType: 'Bearer', expiresIn: SESSION_IDLE_MS / 1000 } };
}

/** Forgets the session in the browser (logout). */
export function clearSessionCookies(reply: FastifyReply): void {
  for (const name of SESSION_COOKIES) reply.clearCookie(name, { path: '/' });
}
