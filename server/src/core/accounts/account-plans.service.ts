import {
  type AccountLimitsInput,
  type AdminAccountsPage,
  type AdminAccountsQuery,
  type AdminAccountView,
  AppError,
  type DailyQuotaView,
  QUOTA_RAISE_DAYS,
  QUOTA_RAISES_PER_MONTH,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller, UserCaller } from '../context.ts';
import { accountDailyLimit, addQuotaDays, quotaDay, quotaMonth, raiseOn } from '../send/quota.ts';
import * as repo from './account-plans.repo.ts';

/**
 * Plans and daily quotas as operators control them (issue 16), from `/admin/accounts` and the
 * `accounts:*` commands: the plan (free or paid), the account's own daily quota (null: the plan's
 * default), and temporary increases (product-spec §4, §9).
 *
 * An increase adds the `extra` emails a day the operator names to the account's limit, for the
 * Asia/Shanghai quota day of the grant and the next; on day 3 the limit is back, whether the
 * extra was used or not. At most QUOTA_RAISES_PER_MONTH are granted per Asia/Shanghai calendar
 * month (counted by the month of the grant), one at a time, and only where there is a limit to
 * raise. The grant takes the account's row lock first, so two operators granting at once cannot
 * both pass the monthly count.
 *
 * Changes reach this process's accept path at once (`onChanged` drops its cached plan); other
 * processes within the five seconds of their cache (send.repo.ts).
 */
export class AccountPlansService {
  private readonly database: Database;
  private readonly now: () => number;
  private readonly onChanged: (accountId: number) => void;

  constructor(
    database: Database,
    options: { now?: () => number; onChanged?: (accountId: number) => void } = {},
  ) {
    this.database = database;
    this.now = options.now ?? Date.now;
    this.onChanged = options.onChanged ?? (() => {});
  }

  /** Today's sending against the account's limit (the dashboard's "today 3 of 10"). */
  async dailyQuota({ accountId }: Caller): Promise<DailyQuotaView> {
    const plan = await repo.findPlan(this.database, accountId);
    if (!plan) throw new AppError('COMMON_NOT_FOUND', { entity: 'Account' });
    const day = quotaDay(this.now());
    const [usage, raises] = await Promise.all([
      repo.usageOn(this.database, [accountId], day),
      repo.openRaises(this.database, [accountId], day),
    ]);
    return quotaView(plan, day, usage.get(accountId) ?? 0, raises.get(accountId));
  }

  /** Customer accounts, newest first, searched by user name or owner email. */
  async list(query: AdminAccountsQuery): Promise<AdminAccountsPage> {
    const { rows, total } = await repo.listCustomerAccounts(this.database, {
      search: query.search || undefined,
      offset: (query.pageNum - 1) * query.pageSize,
      limit: query.pageSize,
    });
    return { list: await this.views(rows), total };
  }

  async get(accountId: number): Promise<AdminAccountView> {
    const row = await repo.findCustomerAccount(this.database, accountId);
    if (!row) throw new AppError('COMMON_NOT_FOUND', { entity: 'Account' });
    const [view] = await this.views([row]);
    return view as AdminAccountView;
  }

  /** Sets the plan and the account's own daily quota (null: the plan's default). */
  async setLimits(
    _operator: Caller | null,
    accountId: number,
    input: AccountLimitsInput,
  ): Promise<AdminAccountView> {
    await this.get(accountId);
    await repo.setLimits(this.database, accountId, input, this.now());
    this.onChanged(accountId);
    return this.get(accountId);
  }

  /** Grants `extra` emails a day on top of the limit for today and tomorrow (Asia/Shanghai). */
  async grantRaise(operator: UserCaller | null, accountId: number, extra: number): Promise<AdminAccountView> {
    const now = this.now();
    const day = quotaDay(now);
    const month = quotaMonth(now);
    await this.database.db.transaction().execute(async (trx) => {
      const scoped = { ...this.database, db: trx };
      await repo.lockAccount(scoped, accountId, now);
      const row = await repo.findCustomerAccount(scoped, accountId);
      if (!row) throw new AppError('COMMON_NOT_FOUND', { entity: 'Account' });
      if (accountDailyLimit(row.plan, row.daily_quota) === null) throw new AppError('PLAN_RAISE_UNLIMITED');
      const open = (await repo.openRaises(scoped, [accountId], day)).get(accountId);
      if (open) throw new AppError('PLAN_RAISE_ACTIVE', { extra: open.extra, until: open.to_day });
      const granted = (await repo.raisesInMonth(scoped, [accountId], month)).get(accountId) ?? 0;
      if (granted >= QUOTA_RAISES_PER_MONTH) {
        throw new AppError('PLAN_RAISES_USED_UP', { count: QUOTA_RAISES_PER_MONTH });
      }
      await repo.insertRaise(
        scoped,
        accountId,
        {
          extra,
          fromDay: day,
          toDay: addQuotaDays(day, QUOTA_RAISE_DAYS - 1),
          month,
          grantedBy: operator?.userId ?? null,
        },
        now,
      );
    });
    this.onChanged(accountId);
    return this.get(accountId);
  }

  private async views(rows: repo.PlanAccountRow[]): Promise<AdminAccountView[]> {
    const now = this.now();
    const day = quotaDay(now);
    const ids = rows.map((r) => r.id);
    const [usage, raises, monthly] = await Promise.all([
      repo.usageOn(this.database, ids, day),
      repo.openRaises(this.database, ids, day),
      repo.raisesInMonth(this.database, ids, quotaMonth(now)),
    ]);
    return rows.map((row) => ({
      accountId: row.id,
      userName: row.username,
      email: row.email ?? '',
      state: row.state,
      certification: row.certification,
      createdAt: row.created_at,
      raisesThisMonth: monthly.get(row.id) ?? 0,
      ...quotaView(
        { plan: row.plan, dailyQuota: row.daily_quota },
        day,
        usage.get(row.id) ?? 0,
        raises.get(row.id),
      ),
    }));
  }
}

function quotaView(
  plan: { plan: 'free' | 'paid'; dailyQuota: number | null },
  day: string,
  used: number,
  open: repo.RaiseRow | undefined,
): DailyQuotaView {
  const raise = open
    ? { extra: open.extra, fromDay: open.from_day, toDay: open.to_day, grantedAt: open.granted_at }
    : null;
  const extra = raiseOn(raise, day);
  return {
    day,
    plan: plan.plan,
    dailyQuota: plan.dailyQuota,
    limit: accountDailyLimit(plan.plan, plan.dailyQuota, extra),
    used,
    raise: extra > 0 ? raise : null,
  };
}
