import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the trade-record and bill queries (product-spec §9 "bill logs 3 years"). */
export const TRADE_RULES = {
  tradeRangeTooOld: {
    'zh-cn': '只能查询最近3年的交易记录',
    en: 'Trade records go back at most 3 years',
  },
  tradeRangeSpan: {
    'zh-cn': '每次查询的时间跨度最多1年',
    en: 'One query spans at most 1 year',
  },
  tradeMonthFormat: {
    'zh-cn': '请选择最近36个月内的月份',
    en: 'Choose a month within the last 36 months',
  },
} as const satisfies RuleMessages;
