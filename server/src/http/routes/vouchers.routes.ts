import { PERMISSIONS, PLATFORM_OPERATOR, vouchersQuerySchema } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const FINANCE = { access: PERMISSIONS.FINANCE };
const OPERATOR = { access: PLATFORM_OPERATOR };
const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const accountQuery = z.object({ accountId: z.coerce.number().int().positive().optional().catch(undefined) });

/**
 * Vouchers and benefit packages (issue 18; console `financialMangement/charge/coupon`, calls
 * `/vouchers`, `/userBenefitPackage`): the account's vouchers, claiming a bare one by its code,
 * using one (credits the balance once), and the account's packages. The operators' calls issue
 * and void vouchers and grant and void packages for any account.
 */
export function vouchersRoutes(app: FastifyInstance, core: Core): void {
  app.get('/v3/api/vouchers', { config: FINANCE }, async (request) => ({
    data: await core.vouchers.list(callerOf(request), vouchersQuerySchema.parse(request.query ?? {})),
  }));

  app.post('/v3/api/vouchers/claim', { config: FINANCE }, async (request) => ({
    data: await core.vouchers.claim(callerOf(request), request.body ?? {}),
  }));

  app.post('/v3/api/vouchers/:id/use', { config: FINANCE }, async (request) => ({
    data: await core.vouchers.use(callerOf(request), idParam.parse(request.params).id),
  }));

  app.get('/v3/api/userBenefitPackage', { config: FINANCE }, async (request) => ({
    data: await core.benefitPackages.list(callerOf(request)),
  }));

  app.get('/v3/api/admin/vouchers', { config: OPERATOR }, async (request) => ({
    data: await core.vouchers.listAll(vouchersQuerySchema.parse(request.query ?? {})),
  }));

  app.post('/v3/api/admin/vouchers', { config: OPERATOR }, async (request, reply) =>
    reply.status(201).send({ data: await core.vouchers.issue(callerOf(request), request.body ?? {}) }),
  );

  app.post('/v3/api/admin/vouchers/:id/void', { config: OPERATOR }, async (request) => ({
    data: await core.vouchers.void(idParam.parse(request.params).id),
  }));

  app.get('/v3/api/admin/packages', { config: OPERATOR }, async (request) => ({
    data: await core.benefitPackages.listAll(accountQuery.parse(request.query ?? {}).accountId),
  }));

  app.post('/v3/api/admin/packages', { config: OPERATOR }, async (request, reply) =>
    reply.status(201).send({ data: await core.benefitPackages.grant(callerOf(request), request.body ?? {}) }),
  );

  app.post('/v3/api/admin/packages/:id/void', { config: OPERATOR }, async (request) => ({
    data: await core.benefitPackages.void(idParam.parse(request.params).id),
  }));
}
