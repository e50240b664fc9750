import { AppError } from '@herald/shared';
import type { FastifyRequest } from 'fastify';
import type { SessionCaller } from '../core/context.ts';
import { hashToken } from '../core/sessions/sessions.service.ts';
import { sessionTokenOf } from './plugins/session-auth.ts';

/**
 * Who a console route acts for, built once per call: the account, the user and the hash of the
 * session's token (sensitive-operation verification marks that session and asks about it). The
 * access guard has already required a login.
 */
export function callerOf(request: FastifyRequest): SessionCaller {
  const principal = request.principal;
  const token = sessionTokenOf(request);
  if (!principal || !token) throw new AppError('AUTH_REQUIRED');
  return { accountId: principal.accountId, userId: principal.userId, sessionHash: hashToken(token) };
}
