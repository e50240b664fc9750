import {
  adminAccountIdSchema,
  PERMISSIONS,
  PLATFORM_OPERATOR,
  rechargeInputSchema,
  rechargeOrdersQuerySchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const FINANCE = { access: PERMISSIONS.FINANCE };
const OPERATOR = { access: PLATFORM_OPERATOR };
// Order numbers are letters, digits and underscores (Alipay's rule): anything else, a NUL that
// PostgreSQL refuses in text among it, is no order's number and never reaches SQL.
const orderParam = z.object({ orderNo: z.string().regex(/^\w{1,64}$/) });
const providerParam = z.object({ provider: z.enum(['alipay', 'paypal']) });

/**
 * Recharges (issue 18; console `/accountSetting/financialMangement/charge`, calls `/user/pay`,
 * `/alipay/pay`, `/paypal/pay`, `/user/orders`): what the charge screen offers, an order placed
 * by Alipay or PayPal (answered with the page the browser goes to), the account's orders, and
 * the result screen's check of one. The operators' calls: the providers' settings (never a
 * secret back) and an offline transfer recorded for an account.
 */
export function rechargesRoutes(app: FastifyInstance, core: Core): void {
  app.get('/v3/api/user/pay', { config: FINANCE }, async (request) => ({
    data: await core.recharges.options(callerOf(request)),
  }));

  for (const method of ['alipay', 'paypal'] as const) {
    app.post(`/v3/api/${method}/pay`, { config: FINANCE }, async (request, reply) => {
      const input = rechargeInputSchema.parse({ ...((request.body as object) ?? {}), method });
      return reply
        .status(201)
        .send({ data: await core.recharges.start(callerOf(request), input, request.lang) });
    });
  }

  app.get('/v3/api/user/balanceHistory', { config: FINANCE }, async (request) => ({
    data: await core.ledger.balanceHistory(callerOf(request)),
  }));

  app.get('/v3/api/user/orders', { config: FINANCE }, async (request) => ({
    data: await core.recharges.list(callerOf(request), rechargeOrdersQuerySchema.parse(request.query ?? {})),
  }));

  app.get('/v3/api/user/orders/:orderNo', { config: FINANCE }, async (request) => ({
    data: await core.recharges.get(callerOf(request), orderParam.parse(request.params).orderNo),
  }));

  app.post('/v3/api/user/orders/:orderNo/check', { config: FINANCE }, async (request) => ({
    data: await core.recharges.check(callerOf(request), orderParam.parse(request.params).orderNo),
  }));

  app.get('/v3/api/admin/paymentSettings', { config: OPERATOR }, async () => ({
    data: await core.paymentSettings.views(),
  }));

  app.put('/v3/api/admin/paymentSettings/:provider', { config: OPERATOR }, async (request) => ({
    data: await core.paymentSettings.set(providerParam.parse(request.params).provider, request.body ?? {}),
  }));

  app.post('/v3/api/admin/accounts/:id/offlineRecharges', { config: OPERATOR }, async (request, reply) => {
    const { id } = z.object({ id: adminAccountIdSchema }).parse(request.params);
    await core.accountPlans.get(id);
    const order = await core.recharges.recordOffline(callerOf(request), id, request.body ?? {});
    return reply.status(201).send({ data: order });
  });
}
