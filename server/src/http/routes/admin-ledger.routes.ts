import { adminAccountIdSchema, PLATFORM_OPERATOR } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const OPERATOR = { access: PLATFORM_OPERATOR };
const idParam = z.object({ id: adminAccountIdSchema });
const codeParam = z.object({ code: z.string().min(1).max(64) });

/**
 * The operators' money controls (issue 18): an account's balance and ledger entries, an
 * adjustment with a reason (the same service as `ledger:adjust`), and the price list charging
 * reads (`prices:set`). Only users of the platform's own account pass the guard.
 */
export function adminLedgerRoutes(app: FastifyInstance, core: Core): void {
  const base = '/v3/api/admin/accounts';

  app.get(`${base}/:id/ledger`, { config: OPERATOR }, async (request) => {
    const { id } = idParam.parse(request.params);
    await core.accountPlans.get(id);
    const account = { accountId: id };
    return {
      data: { balance: await core.ledger.balance(account), entries: await core.ledger.entries(account) },
    };
  });

  app.post(`${base}/:id/adjustments`, { config: OPERATOR }, async (request, reply) => {
    const { id } = idParam.parse(request.params);
    await core.accountPlans.get(id);
    const balance = await core.ledger.adjust(callerOf(request), id, request.body ?? {});
    reply.code(201);
    return { data: { balance } };
  });

  app.get('/v3/api/admin/prices', { config: OPERATOR }, async () => ({ data: await core.ledger.prices() }));

  app.put('/v3/api/admin/prices/:code', { config: OPERATOR }, async (request) => ({
    data: await core.ledger.setPrice(codeParam.parse(request.params).code, request.body ?? {}),
  }));
}
