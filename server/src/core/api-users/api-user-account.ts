import type { Database } from '../../db/database.ts';
import { findAccountWithOwner, sumDailyUsage } from '../accounts/accounts.repo.ts';

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
  database: Database,
  accountId: number,
  now: number,
): Promise<AccountSummary> {
  const row = await findAccountWithOwner(database, accountId);
  const used = await sumDailyUsage(database, accountId, quotaDay(now));
  return {
    userName: row.username,
    email: row.email,
    phone: row.phone || null,
    plan: row.plan,
    balanceFen: Number(row.balance_fen),
    quota: row.daily_quota ?? (row.plan === 'free' ? FREE_DAILY_QUOTA : null),
    todayUsedQuota: used,
    createdAt: Number(row.created_at),
  };
}
