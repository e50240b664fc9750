import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';

/** Free accounts send at most 10 mails a day (product-spec §9). */
export const FREE_DAILY_QUOTA = 10;

/** What SendCloud's `userinfo/get` reports about the account an API_USER belongs to. */
export interface AccountSummary {
  userName: string;
  email: string;
  phone: string | null;
  plan: 'free' | 'paid';
  balanceFen: number;
  /** The day's cap: the account's own, else the free plan's; null when a paid account has none. */
  quota: number | null;
  todayUsedQuota: number;
  createdAt: number;
}

/** The calendar day quotas count on: Asia/Shanghai (UTC+8), like SendCloud's. */
export function quotaDay(now: number): string {
  return new Date(now + 8 * 3_600_000).toISOString().slice(0, 10);
}

export async function accountSummary(
  { db }: Database,
  accountId: number,
  now: number,
): Promise<AccountSummary> {
  const row = await db
    .selectFrom('accounts')
    .innerJoin('users', (join) =>
      join.onRef('users.account_id', '=', 'accounts.id').on('users.is_owner', '=', 1),
    )
    .select([
      'accounts.username',
      'accounts.plan',
      'accounts.balance_fen',
      'accounts.daily_quota',
      'accounts.created_at',
      'users.email',
      'users.phone',
    ])
    .where('accounts.id', '=', accountId)
    .executeTakeFirstOrThrow();
  const used = await db
    .selectFrom('daily_usage')
    .select(sql<number>`coalesce(sum(count), 0)`.as('n'))
    .where('account_id', '=', accountId)
    .where('day', '=', quotaDay(now))
    .executeTakeFirst();
  return {
    userName: row.username,
    email: row.email,
    phone: row.phone || null,
    plan: row.plan,
    balanceFen: Number(row.balance_fen),
    quota: row.daily_quota ?? (row.plan === 'free' ? FREE_DAILY_QUOTA : null),
    todayUsedQuota: Number(used?.n ?? 0),
    createdAt: Number(row.created_at),
  };
}
