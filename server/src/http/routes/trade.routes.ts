import { PERMISSIONS } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const TRADE = { access: PERMISSIONS.TRADE };
const BILL = { access: PERMISSIONS.BILL };
// Order numbers are letters, digits and underscores (Alipay's rule): anything else, a NUL that
// PostgreSQL refuses in text among it, is no order's number and never reaches SQL.
const orderParam = z.object({ orderNo: z.string().regex(/^\w{1,64}$/) });
const CSV = 'text/csv; charset=utf-8';

/**
 * The ledger's views (issue 18; console `/accountSetting/trade` with `tradeDetails` and
 * `receipt`, `/accountSetting/bill`): trade records and their CSV, today's and yesterday's
 * consumption, receipts of paid recharges, and a month's bill and its CSV.
 */
export function tradeRoutes(app: FastifyInstance, core: Core): void {
  const trade = core.trade;

  app.get('/v3/api/trade/records', { config: TRADE }, async (request) => ({
    data: await trade.records(callerOf(request), trade.parseTradeQuery(request.query)),
  }));

  app.get('/v3/api/trade/records/export', { config: TRADE }, async (request, reply) => {
    const query = trade.parseTradeQuery(request.query);
    const csv = await trade.exportRecords(callerOf(request), query, request.lang);
    return reply
      .header('content-type', CSV)
      .header('content-disposition', `attachment; filename="trade-${query.from}-${query.to}.csv"`)
      .send(csv);
  });

  app.get('/v3/api/trade/consumption', { config: TRADE }, async (request) => ({
    data: await trade.consumption(callerOf(request)),
  }));

  app.get('/v3/api/trade/receipts', { config: TRADE }, async (request) => ({
    data: await trade.receipts(callerOf(request), trade.parseReceiptsQuery(request.query)),
  }));

  app.get('/v3/api/trade/receipts/:orderNo', { config: TRADE }, async (request) => ({
    data: await trade.receipt(callerOf(request), orderParam.parse(request.params).orderNo),
  }));

  app.get('/v3/api/bill/months', { config: BILL }, async () => ({ data: trade.months() }));

  app.get('/v3/api/bill', { config: BILL }, async (request) => ({
    data: await trade.bill(callerOf(request), trade.parseBillQuery(request.query)),
  }));

  app.get('/v3/api/bill/export', { config: BILL }, async (request, reply) => {
    const query = trade.parseBillQuery(request.query);
    const csv = await trade.exportBill(callerOf(request), query, request.lang);
    return reply
      .header('content-type', CSV)
      .header('content-disposition', `attachment; filename="bill-${query.month}.csv"`)
      .send(csv);
  });
}
