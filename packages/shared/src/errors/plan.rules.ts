import { DAILY_QUOTA_MAX, QUOTA_RAISE_MAX } from '../limits.ts';
import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the operators' plan and quota controls. */
export const PLAN_RULES = {
  planChoice: { 'zh-cn': '套餐只能是免费或付费', en: 'The plan is free or paid' },
  dailyQuotaRange: {
    'zh-cn': `每日额度为1-${DAILY_QUOTA_MAX}的整数, 留空则使用套餐默认值`,
    en: `The daily quota is a whole number from 1 to ${DAILY_QUOTA_MAX}; leave it empty for the plan's default`,
  },
  quotaRaiseRange: {
    'zh-cn': `临时提额为每日1-${QUOTA_RAISE_MAX}封的整数`,
    en: `A temporary increase is a whole number of 1 to ${QUOTA_RAISE_MAX} emails a day`,
  },
} as const satisfies RuleMessages;
