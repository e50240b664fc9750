import {
  accountLimitsSchema,
  adminAccountIdSchema,
  adminAccountsQuerySchema,
  certificationInputSchema,
  PLATFORM_OPERATOR,
  quotaRaiseSchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const OPERATOR = { access: PLATFORM_OPERATOR };
const idParam = z.object({ id: adminAccountIdSchema });

/**
 * The operators' plans and quotas (/admin/accounts, issue 16): customer accounts with their plan,
 * daily quota, today's usage and temporary increase; set the plan and quota; grant an increase.
 * Only users of the platform's own account pass the guard; customers get 403.
 */
export function adminAccountsRoutes(app: FastifyInstance, core: Core): void {
  const plans = core.accountPlans;
  const base = '/v3/api/admin/accounts';

  app.get(base, { config: OPERATOR }, async (request) => ({
    data: await plans.list(adminAccountsQuerySchema.parse(request.query ?? {})),
  }));

  app.get(`${base}/:id`, { config: OPERATOR }, async (request) => ({
    data: await plans.get(idParam.parse(request.params).id),
  }));

  app.put(`${base}/:id/limits`, { config: OPERATOR }, async (request) => {
    const { id } = idParam.parse(request.params);
    const input = accountLimitsSchema.parse(request.body ?? {});
    return { data: await plans.setLimits(callerOf(request), id, input) };
  });

  // The certification mark every SMS gate reads (issue 20), until certification itself is built.
  app.put(`${base}/:id/certification`, { config: OPERATOR }, async (request) => {
    const { id } = idParam.parse(request.params);
    const { certification } = certificationInputSchema.parse(request.body ?? {});
    await core.smsCompliance.setCertification(callerOf(request), id, certification);
    return { data: await plans.get(id) };
  });

  app.post(`${base}/:id/quota-raises`, { config: OPERATOR }, async (request, reply) => {
    const { id } = idParam.parse(request.params);
    const { extra } = quotaRaiseSchema.parse(request.body ?? {});
    reply.code(201);
    return { data: await plans.grantRaise(callerOf(request), id, extra) };
  });
}
