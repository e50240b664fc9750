import { AppError } from '@herald/shared';
import type { FastifyRequest } from 'fastify';
import type { Ctx } from '../core/context.ts';

/** The caller's context for a core call; the access guard has already required a login. */
export function ctxOf(request: FastifyRequest): Ctx {
  const principal = request.principal;
  if (!principal) throw new AppError('AUTH_REQUIRED');
  return { accountId: principal.accountId, userId: principal.userId };
}
