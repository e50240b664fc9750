import type { LedgerKind } from '@herald/shared';
import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/database.ts';

/**
 * The SQL of the ledger's views (issue 18): trade records with the balance after each entry,
 * the day's accruals of charging by result, paid recharge orders as receipts, and a month's
 * entries for its bill. Reads only; the ledger's tables are written by ledger.repo.ts.
 */

/** A trade query's Beijing days (TradeQuery of @herald/shared) as instants. */
export interface TradeRowFilter {
  kind?: LedgerKind;
  /** Instants: `from` included, `to` excluded. */
  from: number;
  to: number;
}

export interface TradeRow {
  id: number;
  kind: LedgerKind;
  amount_fen: number;
  reason: string;
  detail: string | null;
  created_at: number;
  /** What the entries after this one (all kinds) add up to. */
  later_fen: number;
}

/**
 * The account's entries in the filter, newest first, each with the sum of every entry after it
 * (a window over all the account's entries, so entries the filter leaves out still count).
 */
export async function tradeRows(
  { db }: Database,
  accountId: number,
  filter: TradeRowFilter,
  page: { offset: number; limit: number },
): Promise<TradeRow[]> {
  const all = db
    .selectFrom('ledger_entries')
    .select([
      'id',
      'kind',
      'amount_fen',
      'reason',
      'detail',
      'created_at',
      sql<number>`COALESCE(SUM(amount_fen) OVER (ORDER BY id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)`.as(
        'later_fen',
      ),
    ])
    .where('account_id', '=', accountId);
  let query = db
    .selectFrom(all.as('e'))
    .selectAll()
    .where('created_at', '>=', filter.from)
    .where('created_at', '<', filter.to);
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  const rows = await query.orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute();
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    amount_fen: Number(r.amount_fen),
    created_at: Number(r.created_at),
    later_fen: Number(r.later_fen),
  }));
}

export async function countTrade(
  { db }: Database,
  accountId: number,
  filter: TradeRowFilter,
): Promise<number> {
  let query = db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('created_at', '>=', filter.from)
    .where('created_at', '<', filter.to);
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

export function accrualsOn({ db }: Database, accountId: number, days: string[]) {
  return db
    .selectFrom('charge_accruals')
    .select(['day', 'price_code', 'units', 'accrued_millifen', 'charged_fen'])
    .where('account_id', '=', accountId)
    .where('day', 'in', days)
    .orderBy('price_code')
    .execute();
}

const ORDER_COLUMNS = [
  'out_trade_no',
  'amount_fen',
  'channel',
  'type',
  'provider_txn_id',
  'paid_at',
] as const;

export async function paidOrders(
  { db }: Database,
  accountId: number,
  page: { offset: number; limit: number },
) {
  const query = db
    .selectFrom('recharge_orders')
    .where('account_id', '=', accountId)
    .where('status', '=', 'paid');
  const [rows, count] = await Promise.all([
    query
      .select(ORDER_COLUMNS)
      .orderBy('paid_at', 'desc')
      .orderBy('id', 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** The account's paid order by its number; another account's or an unpaid one is undefined. */
export function paidOrder({ db }: Database, accountId: number, orderNo: string) {
  return db
    .selectFrom('recharge_orders')
    .select(ORDER_COLUMNS)
    .where('account_id', '=', accountId)
    .where('out_trade_no', '=', orderNo)
    .where('status', '=', 'paid')
    .executeTakeFirst();
}

export async function accountName({ db }: Database, accountId: number): Promise<string> {
  const row = await db
    .selectFrom('accounts')
    .select('username')
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row?.username ?? '';
}

/** A charge's Beijing day from its detail JSON; null for every other entry. */
function billedDay({ dialect }: Database): RawBuilder<string | null> {
  return dialect === 'postgres'
    ? sql<string | null>`CASE WHEN kind = 'charge' THEN (detail::json ->> 'day') END`
    : sql<string | null>`CASE WHEN kind = 'charge' THEN json_extract(detail, '$.day') END`;
}

/**
 * Entries billed before the day `day` (a month's first): charges by the day in their detail,
 * everything else by when it was posted (`before`, that day's first instant).
 */
function billedBefore(database: Database, day: string, before: number): Expression<SqlBool> {
  const d = billedDay(database);
  return sql<SqlBool>`(((${d}) IS NOT NULL AND (${d}) < ${day}) OR ((${d}) IS NULL AND created_at < ${before}))`;
}

export interface MonthBounds {
  firstDay: string;
  nextFirstDay: string;
  from: number;
  to: number;
}

/** The account's entries billed in a month: kind, amount and detail. */
export async function billedEntries(database: Database, accountId: number, m: MonthBounds) {
  const rows = await database.db
    .selectFrom('ledger_entries')
    .select(['kind', 'amount_fen', 'detail'])
    .where('account_id', '=', accountId)
    .where(billedBefore(database, m.nextFirstDay, m.to))
    .where((eb) => eb.not(billedBefore(database, m.firstDay, m.from)))
    .execute();
  return rows.map((r) => ({ kind: r.kind, amountFen: Number(r.amount_fen), detail: r.detail }));
}

/** The balance as billed before a month: the sum of the entries billed before it. */
export async function balanceBilledBefore(
  database: Database,
  accountId: number,
  m: MonthBounds,
): Promise<number> {
  const row = await database.db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.sum<number>('amount_fen').as('fen'))
    .where('account_id', '=', accountId)
    .where(billedBefore(database, m.firstDay, m.from))
    .executeTakeFirst();
  return Number(row?.fen ?? 0);
}
