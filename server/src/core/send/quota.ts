/**
 * Daily quotas (issue 5, product-spec §1): a free account sends 10 emails a day, a test API_USER
 * 50, and an account with its own daily_quota that many. An email is one recipient. Days are
 * counted in Asia/Shanghai (UTC+8, no daylight saving), the clock SendCloud's quotas reset by.
 */
export const FREE_DAILY_QUOTA = 10;
export const TEST_API_USER_DAILY_QUOTA = 50;

const SHANGHAI_OFFSET_MS = 8 * 3600_000;

export function quotaDay(now: number): string {
  return new Date(now + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10);
}

/** The account's limit per day, or null when it has none (a paid account without its own quota). */
export function accountDailyLimit(plan: 'free' | 'paid', dailyQuota: number | null): number | null {
  if (dailyQuota !== null) return dailyQuota;
  return plan === 'free' ? FREE_DAILY_QUOTA : null;
}

export function apiUserDailyLimit(cType: 'normal' | 'test'): number | null {
  return cType === 'test' ? TEST_API_USER_DAILY_QUOTA : null;
}
