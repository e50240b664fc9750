import { type Insertable, type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
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
    db
      .selectFrom('labels')
      .select(['id', 'name'])
      .where('account_id', '=', accountId)
      .where('channel', '=', 'email')
      .execute(),
  ]);
  return {
    apiUsers: new Map(apiUsers.map((r) => [Number(r.id), r.name])),
    labels: new Map(labels.map((r) => [Number(r.id), r.name])),
  };
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

/** ORDER BY for sumRollup: busiest receiving domain first (requested sum, then domain name). */
export function requestedDescOrder(): RawBuilder<unknown> {
  return sql`requested DESC, recipient_domain`;
}

/** ORDER BY for sumRollup: the largest sum of `columns` added together first. */
export function columnsSumDescOrder(columns: readonly string[]): RawBuilder<unknown> {
  return sql`${sql.join(
    columns.map((c) => sql`SUM(${sql.ref(c)})`),
    sql` + `,
  )} DESC`;
}

/** Requests per receiving domain in the given (day, hour) slots of stat_hours. */
export function domainRequestsInHours(
  db: Kysely<DB>,
  accountId: number,
  current: { day: string; hour: number },
  previous: { day: string; hour: number },
) {
  return db
    .selectFrom('stat_hours')
    .select(['recipient_domain', (eb) => eb.fn.sum<number>('requested').as('requested')])
    .where('account_id', '=', accountId)
    .where((eb) =>
      eb.or([
        eb.and([eb('day', '=', current.day), eb('hour', '=', current.hour)]),
        eb.and([eb('day', '=', previous.day), eb('hour', '=', previous.hour)]),
      ]),
    )
    .groupBy('recipient_domain')
    .execute();
}

/** Rows per statement: 25 columns × 1000 stays under SQLite's 32,766 bound parameters. */
const CHUNK = 1000;

/**
 * One multi-row upsert per chunk into a rollup table, adding the values to existing rows
 * (`ON CONFLICT … DO UPDATE SET x = x + excluded.x`, the same on SQLite and PostgreSQL).
 * Runs inside the caller's transaction.
 */
export async function upsertRollupRows(
  trx: Kysely<DB>,
  table: string,
  keyColumns: readonly string[],
  valueColumns: readonly string[],
  rows: Iterable<{ key: (string | number)[]; values: number[] }>,
): Promise<void> {
  const all = [...rows];
  const columns = [...keyColumns, ...valueColumns];
  const set = valueColumns.map(
    (c) => sql`${sql.ref(c)} = ${sql.table(table)}.${sql.ref(c)} + excluded.${sql.ref(c)}`,
  );
  for (let i = 0; i < all.length; i += CHUNK) {
    const tuples = all.slice(i, i + CHUNK).map((row) => sql`(${sql.join([...row.key, ...row.values])})`);
    await sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
      VALUES ${sql.join(tuples)}
      ON CONFLICT (${sql.join(keyColumns.map((c) => sql.ref(c)))}) DO UPDATE SET ${sql.join(set)}`.execute(
      trx,
    );
  }
}

/** The account's reputation_history rows from `from` to `to` inclusive, by day. */
export function listReputationHistory({ db }: Database, accountId: number, from: string, to: string) {
  return db
    .selectFrom('reputation_history')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .orderBy('day')
    .execute();
}

/** Ids of every customer account (the ones reputation is recorded for). */
export function listCustomerAccountIds({ db }: Database) {
  return db.selectFrom('accounts').select('id').where('kind', '=', 'customer').execute();
}

export type ReputationHistoryValues = Omit<Insertable<DB['reputation_history']>, 'account_id' | 'day'>;

/** Writes an account's reputation row of a day, or refreshes it when already there. */
export async function upsertReputationHistory(
  { db }: Database,
  accountId: number,
  day: string,
  values: ReputationHistoryValues,
): Promise<void> {
  await db
    .insertInto('reputation_history')
    .values({ account_id: accountId, day, ...values })
    .onConflict((oc) => oc.columns(['account_id', 'day']).doUpdateSet(values))
    .execute();
}
