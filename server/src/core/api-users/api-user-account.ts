import type { Database } from '../../db/database.ts';
import { AccountPlansService } from '../accounts/account-plans.service.ts';
import { findAccountWithOwner } from '../accounts/accounts.repo.ts';
import { balanceOf } from '../ledger/ledger.repo.ts';

/** What SendCloud's `userinfo/get` reports about the account an API_USER belongs to. */
export interface AccountSummary {
  userName: string;
  email: string;
  phone: string | null;
  plan: 'free' | 'paid';
  balanceFen: number;
  /**
   * The day's cap: the account's own, else the free plan's, plus a temporary increase in force;
   * null when a paid account has none.
   */
  quota: number | null;
  todayUsedQuota: number;
  createdAt: number;
}

export async function accountSummary(
  database: Database,
  accountId: number,
  now: number,
): Promise<AccountSummary> {
  const row = await findAccountWithOwner(database, accountId);
  const today = await new AccountPlansService(database, { now: () => now }).dailyQuota({ accountId });
  return {
    userName: row.username,
    email: row.email,
    phone: row.phone || null,
    plan: row.plan,
    balanceFen: await balanceOf(database, accountId),
    quota: today.limit,
    todayUsedQuota: today.used,
    createdAt: Number(row.created_at),
  };
}
