import { AppError } from '@herald/shared';
import type { FastifyRequest } from 'fastify';
import type { SessionRef } from '../core/sensitive-verification/sensitive-verification.service.ts';
import { hashToken } from '../core/sessions/sessions.service.ts';
import { ctxOf } from './context.ts';
import { sessionTokenOf } from './plugins/session-auth.ts';

/**
 * The caller's session, for core calls that act on the session itself (sensitive-operation
 * verification marks it) or ask whether it was verified: `requireRecentVerification(sessionOf(request))`.
 */
export function sessionOf(request: FastifyRequest): SessionRef {
  const ctx = ctxOf(request);
  const token = sessionTokenOf(request);
  if (!token) throw new AppError('AUTH_REQUIRED');
  return { ...ctx, tokenHash: hashToken(token) };
}
