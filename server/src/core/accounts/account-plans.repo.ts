import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';

/**
 * The SQL of plans, daily quotas and temporary increases. The operator's reads cross accounts on
 * purpose (the HTTP guard admits only platform operators); they see customer accounts only.
 */

export interface PlanAccountRow {
  id: number;
  username: string;
  plan: 'free' | 'paid';
  daily_quota: number | null;
  state: 'active' | 'suspended' | 'frozen';
  certification: 'none' | 'personal' | 'enterprise';
  created_at: number;
  email: string | null;
}

function customerAccounts({ db }: Database) {
  return db
    .selectFrom('accounts')
    .leftJoin('users', (join) =>
      join.onRef('users.account_id', '=', 'accounts.id').on('users.is_owner', '=', 1),
    )
    .where('accounts.kind', '=', 'customer');
}

/** A LIKE pattern (escape character `\`) for a search text, its own wildcards taken literally. */
function likeTerm(search: string | undefined): string | null {
  return search ? `%${search.toLowerCase().replace(/[%_\\]/g, '\\$&')}%` : null;
}

export async function listCustomerAccounts(
  database: Database,
  filter: { search?: string; offset: number; limit: number },
): Promise<{ rows: PlanAccountRow[]; total: number }> {
  const term = likeTerm(filter.search);
  let query = customerAccounts(database);
  if (term) {
    query = query.where(
      sql<boolean>`(lower(accounts.username) like ${term} escape '\\' or lower(users.email) like ${term} escape '\\')`,
    );
  }
  const [rows, count] = await Promise.all([
    query
      .select([
        'accounts.id',
        'accounts.username',
        'accounts.plan',
        'accounts.daily_quota',
        'accounts.state',
        'accounts.certification',
        'accounts.created_at',
        'users.email',
      ])
      .orderBy('accounts.id', 'desc')
      .offset(filter.offset)
      .limit(filter.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows: rows.map(normalize), total: Number(count?.n ?? 0) };
}

export async function findCustomerAccount(
  database: Database,
  accountId: number,
): Promise<PlanAccountRow | undefined> {
  const row = await customerAccounts(database)
    .select([
      'accounts.id',
      'accounts.username',
      'accounts.plan',
      'accounts.daily_quota',
      'accounts.state',
      'accounts.certification',
      'accounts.created_at',
      'users.email',
    ])
    .where('accounts.id', '=', accountId)
    .executeTakeFirst();
  return row ? normalize(row) : undefined;
}

function normalize(row: PlanAccountRow): PlanAccountRow {
  return {
    ...row,
    id: Number(row.id),
    daily_quota: row.daily_quota === null ? null : Number(row.daily_quota),
    created_at: Number(row.created_at),
  };
}

export async function findPlan({ db }: Database, accountId: number) {
  const row = await db
    .selectFrom('accounts')
    .select(['plan', 'daily_quota'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row
    ? { plan: row.plan, dailyQuota: row.daily_quota === null ? null : Number(row.daily_quota) }
    : undefined;
}

export async function setLimits(
  { db }: Database,
  accountId: number,
  limits: { plan: 'free' | 'paid'; dailyQuota: number | null },
  now: number,
): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ plan: limits.plan, daily_quota: limits.dailyQuota, updated_at: now })
    .where('id', '=', accountId)
    .execute();
}

/** Takes the account's row lock (PostgreSQL; SQLite writes one at a time anyway) for a grant. */
export async function lockAccount({ db }: Database, accountId: number, now: number): Promise<void> {
  await db.updateTable('accounts').set({ updated_at: now }).where('id', '=', accountId).execute();
}

/** Emails sent per account on one quota day. */
export async function usageOn(
  { db }: Database,
  accountIds: number[],
  day: string,
): Promise<Map<number, number>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('daily_usage')
    .select(['account_id', (eb) => eb.fn.sum<number>('count').as('n')])
    .where('account_id', 'in', accountIds)
    .where('day', '=', day)
    .groupBy('account_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.account_id), Number(r.n)]));
}

export interface RaiseRow {
  account_id: number;
  extra: number;
  from_day: string;
  to_day: string;
  granted_at: number;
}

/** Per account, the newest increase that has not ended by `day`. */
export async function openRaises(
  { db }: Database,
  accountIds: number[],
  day: string,
): Promise<Map<number, RaiseRow>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('quota_raises')
    .select(['account_id', 'extra', 'from_day', 'to_day', 'granted_at'])
    .where('account_id', 'in', accountIds)
    .where('to_day', '>=', day)
    .orderBy('to_day', 'asc')
    .execute();
  const found = new Map<number, RaiseRow>();
  for (const row of rows) {
    found.set(Number(row.account_id), {
      account_id: Number(row.account_id),
      extra: Number(row.extra),
      from_day: row.from_day,
      to_day: row.to_day,
      granted_at: Number(row.granted_at),
    });
  }
  return found;
}

/** Increases granted per account in one Asia/Shanghai month. */
export async function raisesInMonth(
  { db }: Database,
  accountIds: number[],
  month: string,
): Promise<Map<number, number>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('quota_raises')
    .select(['account_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('account_id', 'in', accountIds)
    .where('month', '=', month)
    .groupBy('account_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.account_id), Number(r.n)]));
}

export async function insertRaise(
  { db }: Database,
  accountId: number,
  raise: { extra: number; fromDay: string; toDay: string; month: string; grantedBy: number | null },
  now: number,
): Promise<void> {
  await db
    .insertInto('quota_raises')
    .values({
      account_id: accountId,
      extra: raise.extra,
      from_day: raise.fromDay,
      to_day: raise.toDay,
      month: raise.month,
      granted_by: raise.grantedBy,
      granted_at: now,
    })
    .execute();
}
