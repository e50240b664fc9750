import { z } from 'zod';
import { DAILY_QUOTA_MAX, QUOTA_RAISE_MAX } from '../limits.ts';
import type { ValidationKey } from '../validation.ts';
import type { AccountCertificationLevel } from './sms-filing.schema.ts';

/**
 * Plans and daily quotas as operators control them (issue 16): `/admin/accounts` and the
 * `accounts:*` commands set an account's plan and its own daily quota (null: the plan's default,
 * 10 a day on the free plan, none on the paid one), and grant temporary increases: `extra` emails
 * a day on top of the limit for the day of the grant and the next (product-spec §4, §9).
 */
const rule = (key: ValidationKey) => ({ message: key });

export const ACCOUNT_PLANS = ['free', 'paid'] as const;
export type AccountPlan = (typeof ACCOUNT_PLANS)[number];

export const accountPlanSchema = z.enum(ACCOUNT_PLANS, rule('planChoice'));

/** A whole number of emails a day; '' and null both mean "the plan's default". */
export const dailyQuotaSchema = z.preprocess(
  (v) => (v === '' || v === undefined ? null : typeof v === 'string' ? Number(v) : v),
  z
    .number(rule('dailyQuotaRange'))
    .int(rule('dailyQuotaRange'))
    .min(1, rule('dailyQuotaRange'))
    .max(DAILY_QUOTA_MAX, rule('dailyQuotaRange'))
    .nullable(),
);

export const accountLimitsSchema = z.object({
  plan: accountPlanSchema,
  dailyQuota: dailyQuotaSchema,
});
export type AccountLimitsInput = z.infer<typeof accountLimitsSchema>;

export const quotaRaiseSchema = z.object({
  extra: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number(rule('quotaRaiseRange'))
      .int(rule('quotaRaiseRange'))
      .min(1, rule('quotaRaiseRange'))
      .max(QUOTA_RAISE_MAX, rule('quotaRaiseRange')),
  ),
});
export type QuotaRaiseInput = z.infer<typeof quotaRaiseSchema>;

export const adminAccountsQuerySchema = z.object({
  search: z.string().trim().max(100).optional(),
  pageNum: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type AdminAccountsQuery = z.infer<typeof adminAccountsQuerySchema>;

export const adminAccountIdSchema = z.coerce
  .number(rule('invalid'))
  .int(rule('invalid'))
  .positive(rule('invalid'));

/** A temporary increase: quota days (Asia/Shanghai, yyyy-MM-dd), both inclusive. */
export interface QuotaRaiseView {
  extra: number;
  fromDay: string;
  toDay: string;
  grantedAt: number;
}

/** Today's sending against the daily limit, as the dashboard and the operators see it. */
export interface DailyQuotaView {
  /** The quota day (Asia/Shanghai). */
  day: string;
  plan: AccountPlan;
  /** The account's own daily quota; null means the plan's default. */
  dailyQuota: number | null;
  /** Today's limit with an active increase added; null when the account has none. */
  limit: number | null;
  used: number;
  /** The increase in force today, if any. */
  raise: QuotaRaiseView | null;
}

/** One row of `/admin/accounts`. */
export interface AdminAccountView extends DailyQuotaView {
  accountId: number;
  userName: string;
  email: string;
  state: 'active' | 'suspended' | 'frozen';
  /** The operators' certification mark (SMS and voice need `enterprise`). */
  certification: AccountCertificationLevel;
  /** Increases granted this month (Asia/Shanghai), of QUOTA_RAISES_PER_MONTH. */
  raisesThisMonth: number;
  createdAt: number;
}

export interface AdminAccountsPage {
  list: AdminAccountView[];
  total: number;
}
