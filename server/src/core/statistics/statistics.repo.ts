import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * The SQL of the statistics queries: sums over one rollup table, for one account and a range
 * of days, with optional filters, grouped by the named key columns. Every query reads rollups
 * only, and every one is bound to the account first (tenancy) and the day range second, which
 * is the leading part of every rollup's primary key.
 */
export type RollupTable =
  | 'stat_hours'
  | 'stat_days'
  | 'stat_domain_days'
  | 'stat_account_days'
  | 'stat_delivery_times';

/**
 * The smallest day rollup that can answer: stat_days when an API_USER or label is grouped or
 * filtered on, stat_domain_days when only the receiving domain is, else stat_account_days.
 * Half a year of an account is ~180 rows in the last, thousands in the middle one and hundreds
 * of thousands in stat_days, which is what keeps the common queries fast.
 */
export function dayTable(filter: RollupFilter, groupBy: readonly string[]): RollupTable {
  const keys = new Set(groupBy);
  if (
    filter.apiUserIds?.length ||
    filter.labelIds?.length ||
    keys.has('api_user_id') ||
    keys.has('label_id')
  ) {
    return 'stat_days';
  }
  if (filter.domains?.length || keys.has('recipient_domain')) return 'stat_domain_days';
  return 'stat_account_days';
}

export interface RollupFilter {
  from: string;
  to: string;
  apiUserIds?: number[];
  labelIds?: number[];
  domains?: string[];
}

export type RollupRow = Record<string, number | string>;

export async function sumRollup(
  db: Kysely<DB>,
  table: RollupTable,
  accountId: number,
  filter: RollupFilter,
  groupBy: readonly string[],
  columns: readonly string[],
  options: { orderBy?: RawBuilder<unknown>; limit?: number } = {},
): Promise<RollupRow[]> {
  const where = [sql`account_id = ${accountId}`, sql`day >= ${filter.from}`, sql`day <= ${filter.to}`];
  if (filter.apiUserIds?.length) where.push(sql`api_user_id IN (${sql.join(filter.apiUserIds)})`);
  if (filter.labelIds?.length) where.push(sql`label_id IN (${sql.join(filter.labelIds)})`);
  if (filter.domains?.length) where.push(sql`recipient_domain IN (${sql.join(filter.domains)})`);
  const keys = groupBy.map((c) => sql.ref(c));
  const sums = columns.map((c) => sql`SUM(${sql.ref(c)}) AS ${sql.ref(c)}`);
  const group = keys.length ? sql` GROUP BY ${sql.join(keys)}` : sql``;
  const order = options.orderBy ?? (keys.length ? sql`${sql.join(keys)}` : undefined);
  const result = await sql<RollupRow>`SELECT ${sql.join([...keys, ...sums])} FROM ${sql.table(table)}
    WHERE ${sql.join(where, sql` AND `)}${group}${order ? sql` ORDER BY ${order}` : sql``}${
      options.limit ? sql` LIMIT ${options.limit}` : sql``
    }`.execute(db);
  // SUM over no rows is NULL; and PostgreSQL's SUM(bigint) arrives as a numeric.
  return result.rows.map((row) => {
    const out: RollupRow = {};
    for (const [k, v] of Object.entries(row))
      out[k] = typeof v === 'string' && !groupBy.includes(k) ? Number(v) : (v ?? 0);
    return out;
  });
}

/** Names of the account's API_USERs and labels, for the ids the rollups keep. */
export async function dimensionNames(db: Kysely<DB>, accountId: number) {
  const [apiUsers, labels] = await Promise.all([
    db.selectFrom('api_users').select(['id', 'name']).where('account_id', '=', accountId).execute(),
    db.selectFrom('labels').select(['id', 'name']).where('account_id', '=', accountId).execute(),
  ]);
  return {
    apiUsers: new Map(apiUsers.map((r) => [Number(r.id), r.name])),
    labels: new Map(labels.map((r) => [Number(r.id), r.name])),
  };
}

/** Ids of the account's API_USERs named (SendCloud's apiUserList). */
export async function apiUserIdsByName(
  db: Kysely<DB>,
  accountId: number,
  names: string[],
): Promise<number[]> {
  if (names.length === 0) return [];
  const rows = await db
    .selectFrom('api_users')
    .select('id')
    .where('account_id', '=', accountId)
    .where('name', 'in', names)
    .execute();
  return rows.map((r) => Number(r.id));
}

/** Requests per recipient address in [since, now): the addresses asked for most (anti-bombing). */
export async function busiestRecipients(
  db: Kysely<DB>,
  accountId: number,
  since: number,
  min: number,
  limit: number,
) {
  const rows = await db
    .selectFrom('mail_events')
    .select(['recipient', (eb) => eb.fn.countAll<number>().as('requests')])
    .where('account_id', '=', accountId)
    .where('kind', '=', 'request')
    .where('at', '>=', since)
    .groupBy('recipient')
    .having((eb) => eb.fn.countAll(), '>=', min)
    .orderBy('requests', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ recipient: r.recipient, requests: Number(r.requests) }));
}
