import { beijingDay } from '@herald/shared';

/**
 * Daily quotas (issue 5, product-spec §1): a free account sends 10 emails a day, a test API_USER
 * 50, and an account with its own daily_quota that many. An email is one recipient. Days are
 * counted in Asia/Shanghai (UTC+8, no daylight saving), the clock SendCloud's quotas reset by.
 * An operator's temporary increase (issue 16) adds its `extra` to the account's limit on the
 * day of the grant and the next; months for its twice-a-month rule are Asia/Shanghai months too.
 */
export const FREE_DAILY_QUOTA = 10;
export const TEST_API_USER_DAILY_QUOTA = 50;

export function quotaDay(now: number): string {
  return beijingDay(now);
}

/** The Asia/Shanghai calendar month (yyyy-MM) of a moment: temporary increases count per month. */
export function quotaMonth(now: number): string {
  return quotaDay(now).slice(0, 7);
}

/** The quota day `days` after `day` (yyyy-MM-dd). */
export function addQuotaDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** A temporary increase (operators grant it, core/accounts/account-plans.service.ts). */
export interface QuotaRaiseWindow {
  extra: number;
  /** Quota days, both inclusive. */
  fromDay: string;
  toDay: string;
}

/** The extra emails a raise adds on `day`: its `extra` inside its days, else nothing. */
export function raiseOn(raise: QuotaRaiseWindow | null, day: string): number {
  return raise && raise.fromDay <= day && day <= raise.toDay ? raise.extra : 0;
}

/**
 * The account's limit per day, or null when it has none (a paid account without its own quota);
 * `extra` is a temporary increase in force that day.
 */
export function accountDailyLimit(
  plan: 'free' | 'paid',
  dailyQuota: number | null,
  extra = 0,
): number | null {
  const base = dailyQuota ?? (plan === 'free' ? FREE_DAILY_QUOTA : null);
  return base === null ? null : base + extra;
}

/** The account's limit at `now`, with the raise of its settings if one is in force that day. */
export function accountLimitAt(
  settings: { plan: 'free' | 'paid'; dailyQuota: number | null; raise: QuotaRaiseWindow | null },
  now: number,
): number | null {
  return accountDailyLimit(settings.plan, settings.dailyQuota, raiseOn(settings.raise, quotaDay(now)));
}

export function apiUserDailyLimit(cType: 'normal' | 'test'): number | null {
  return cType === 'test' ? TEST_API_USER_DAILY_QUOTA : null;
}
