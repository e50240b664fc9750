import {
  AppError,
  addDays,
  addMonths,
  type BillQuery,
  type BillView,
  billQuerySchema,
  type ConsumptionDayView,
  type ConsumptionView,
  fenToCapital,
  type Lang,
  type ReceiptsPage,
  type ReceiptsQuery,
  type ReceiptView,
  receiptsQuerySchema,
  statDay,
  statDayStart,
  TRADE_EXPORT_MAX_ROWS,
  type TradeQuery,
  type TradeRecordsPage,
  type TradeRecordView,
  tradeMonths,
  tradeQuerySchema,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller } from '../context.ts';
import { balanceOf, listPrices } from '../ledger/ledger.repo.ts';
import * as repo from './trade.repo.ts';
import { billCsv, tradeCsv } from './trade-csv.ts';

/**
 * Trade records, real-time consumption, receipts and bills (issue 18): views of the ledger.
 * Nothing here writes; every figure is read from `ledger_entries`, `charge_accruals`,
 * `recharge_orders` and `prices`, so a view never disagrees with the balance.
 */
export class TradeService {
  private readonly database: Database;
  private readonly now: () => number;

  constructor(database: Database, options: { now?: () => number } = {}) {
    this.database = database;
    this.now = options.now ?? Date.now;
  }

  private today(): string {
    return statDay(this.now());
  }

  parseTradeQuery(input: unknown): TradeQuery {
    return tradeQuerySchema(this.today()).parse(input ?? {});
  }

  parseBillQuery(input: unknown): BillQuery {
    return billQuerySchema(this.today()).parse(input ?? {});
  }

  parseReceiptsQuery(input: unknown): ReceiptsQuery {
    return receiptsQuerySchema.parse(input ?? {});
  }

  /** The account's entries in the query's range and kind, newest first, with the balance after each. */
  async records({ accountId }: Caller, query: TradeQuery): Promise<TradeRecordsPage> {
    const filter = tradeFilter(query);
    const [balanceFen, rows, total] = await Promise.all([
      balanceOf(this.database, accountId),
      repo.tradeRows(this.database, accountId, filter, {
        offset: (query.pageNum - 1) * query.pageSize,
        limit: query.pageSize,
      }),
      repo.countTrade(this.database, accountId, filter),
    ]);
    return { list: rows.map((r) => recordView(r, balanceFen)), total, balanceFen };
  }

  /** The query's rows (all pages) as CSV with a BOM, headed in `lang`. */
  async exportRecords({ accountId }: Caller, query: TradeQuery, lang: Lang): Promise<string> {
    const [balanceFen, rows] = await Promise.all([
      balanceOf(this.database, accountId),
      repo.tradeRows(this.database, accountId, tradeFilter(query), {
        offset: 0,
        limit: TRADE_EXPORT_MAX_ROWS,
      }),
    ]);
    return tradeCsv(
      rows.map((r) => recordView(r, balanceFen)),
      lang,
    );
  }

  /** Today's and yesterday's usage per price item as charging by result has counted it. */
  async consumption({ accountId }: Caller): Promise<ConsumptionView> {
    const today = this.today();
    const yesterday = addDays(today, -1);
    const [rows, prices, balanceFen] = await Promise.all([
      repo.accrualsOn(this.database, accountId, [today, yesterday]),
      listPrices(this.database),
      balanceOf(this.database, accountId),
    ]);
    const price = new Map(prices.map((p) => [p.code, { unit: Number(p.unit), fen: Number(p.fen) }]));
    const dayView = (day: string): ConsumptionDayView => {
      const items = rows
        .filter((r) => r.day === day)
        .map((r) => ({
          code: r.price_code,
          units: Number(r.units),
          accruedFen: Math.ceil(Number(r.accrued_millifen) / 1000),
          chargedFen: Number(r.charged_fen),
          priceFen: price.get(r.price_code)?.fen ?? null,
          priceUnit: price.get(r.price_code)?.unit ?? null,
        }));
      return {
        day,
        items,
        accruedFen: items.reduce((sum, i) => sum + i.accruedFen, 0),
        chargedFen: items.reduce((sum, i) => sum + i.chargedFen, 0),
      };
    };
    return { today: dayView(today), yesterday: dayView(yesterday), balanceFen };
  }

  async receipts({ accountId }: Caller, query: ReceiptsQuery): Promise<ReceiptsPage> {
    const [account, { rows, total }] = await Promise.all([
      repo.accountName(this.database, accountId),
      repo.paidOrders(this.database, accountId, {
        offset: (query.pageNum - 1) * query.pageSize,
        limit: query.pageSize,
      }),
    ]);
    return { list: rows.map((r) => receiptView(r, account)), total };
  }

  /** One paid order's receipt; another account's or an unpaid order is not found. */
  async receipt({ accountId }: Caller, orderNo: string): Promise<ReceiptView> {
    const row = orderNo.length <= 64 ? await repo.paidOrder(this.database, accountId, orderNo) : undefined;
    if (!row) throw new AppError('RECHARGE_ORDER_NOT_FOUND');
    return receiptView(row, await repo.accountName(this.database, accountId));
  }

  /** The months a bill can be asked for: the last 36, newest first. */
  months(): string[] {
    return tradeMonths(this.today());
  }

  /** A Beijing month's bill: charges per product, recharges, adjustments, opening and closing balance. */
  async bill({ accountId }: Caller, { month }: BillQuery): Promise<BillView> {
    const firstDay = `${month}-01`;
    const nextFirstDay = addMonths(firstDay, 1);
    const bounds = { firstDay, nextFirstDay, from: statDayStart(firstDay), to: statDayStart(nextFirstDay) };
    const [openingFen, entries] = await Promise.all([
      repo.balanceBilledBefore(this.database, accountId, bounds),
      repo.billedEntries(this.database, accountId, bounds),
    ]);
    const bill: BillView = {
      month,
      openingFen,
      closingFen: openingFen,
      chargedFen: 0,
      rechargedFen: 0,
      adjustedFen: 0,
      otherFen: 0,
      products: [],
    };
    // A day's units are its last charge's dayUnits: every charge of the day carries the running count.
    const units = new Map<string, Map<string, number>>();
    const amounts = new Map<string, number>();
    for (const e of entries) {
      bill.closingFen += e.amountFen;
      if (e.kind === 'recharge') bill.rechargedFen += e.amountFen;
      else if (e.kind === 'adjustment') bill.adjustedFen += e.amountFen;
      else if (e.kind !== 'charge') bill.otherFen += e.amountFen;
      else {
        bill.chargedFen -= e.amountFen;
        const detail = chargeDetail(e.detail);
        const code = detail?.code ?? 'other';
        amounts.set(code, (amounts.get(code) ?? 0) - e.amountFen);
        if (detail?.day) {
          const days = units.get(code) ?? new Map<string, number>();
          days.set(detail.day, Math.max(days.get(detail.day) ?? 0, detail.dayUnits ?? detail.units ?? 0));
          units.set(code, days);
        }
      }
    }
    bill.products = [...amounts.entries()]
      .map(([code, amountFen]) => ({
        code,
        amountFen,
        units: [...(units.get(code)?.values() ?? [])].reduce((sum, n) => sum + n, 0),
      }))
      .sort((a, b) => b.amountFen - a.amountFen || a.code.localeCompare(b.code));
    return bill;
  }

  async exportBill(caller: Caller, query: BillQuery, lang: Lang): Promise<string> {
    return billCsv(await this.bill(caller, query), lang);
  }
}

function tradeFilter(query: TradeQuery): repo.TradeRowFilter {
  return { kind: query.kind, from: statDayStart(query.from), to: statDayStart(addDays(query.to, 1)) };
}

interface ChargeDetail {
  code?: string;
  day?: string;
  units?: number;
  dayUnits?: number;
  orderNo?: string;
}

function chargeDetail(detail: string | null): ChargeDetail | null {
  if (!detail) return null;
  try {
    const parsed: unknown = JSON.parse(detail);
    return parsed && typeof parsed === 'object' ? (parsed as ChargeDetail) : null;
  } catch {
    return null;
  }
}

function recordView(r: repo.TradeRow, balanceFen: number): TradeRecordView {
  const detail = chargeDetail(r.detail);
  const charge = r.kind === 'charge';
  return {
    id: r.id,
    kind: r.kind,
    amountFen: r.amount_fen,
    balanceAfterFen: balanceFen - r.later_fen,
    reason: r.reason,
    code: charge ? (detail?.code ?? null) : null,
    day: charge ? (detail?.day ?? null) : null,
    units: charge && typeof detail?.units === 'number' ? detail.units : null,
    orderNo: typeof detail?.orderNo === 'string' ? detail.orderNo : null,
    createdAt: r.created_at,
  };
}

function receiptView(r: Awaited<ReturnType<typeof repo.paidOrder>> & object, account: string): ReceiptView {
  const amountFen = Number(r.amount_fen);
  return {
    orderNo: r.out_trade_no,
    account,
    amountFen,
    amountCapital: fenToCapital(amountFen),
    channel: r.channel,
    type: r.type,
    providerTxnId: r.provider_txn_id,
    paidAt: Number(r.paid_at),
  };
}
