import type { ErrorDefinition } from './error-definition.ts';

/**
 * Errors of the operators' plan and quota controls (issue 16): `/admin/accounts` and the
 * `accounts:*` commands. A temporary increase is granted at most twice per Asia/Shanghai month,
 * one at a time, and only to an account that has a daily limit.
 */
export const PLAN_ERRORS = {
  PLAN_RAISES_USED_UP: {
    status: 409,
    'zh-cn': '本月已临时提额{count}次, 已达每月上限; 下月1日(北京时间)起可再次提额',
    en: 'This account already had {count} temporary quota increases this month, the most a month allows; the next can be granted from the 1st of next month (Beijing time)',
  },
  PLAN_RAISE_ACTIVE: {
    status: 409,
    'zh-cn': '该账号已有生效中的临时提额(每日+{extra}封, 至{until}), 到期后才能再次提额',
    en: 'This account already has a temporary increase (+{extra} emails a day, until {until}); another can be granted after it ends',
  },
  PLAN_RAISE_UNLIMITED: {
    status: 409,
    'zh-cn': '该账号没有每日发送上限(付费且未设置每日额度), 无需临时提额',
    en: 'This account has no daily limit (paid, without a daily quota of its own), so there is nothing to raise',
  },
} as const satisfies Record<string, ErrorDefinition>;
