import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the statistics queries and monitor thresholds. */
export const STATISTICS_RULES = {
  statDateFormat: {
    'zh-cn': '日期格式为 yyyy-MM-dd',
    en: 'Dates are yyyy-MM-dd',
  },
  statRangeOrder: {
    'zh-cn': '结束日期不能早于开始日期',
    en: 'The end date cannot be earlier than the start date',
  },
  statRangeFuture: {
    'zh-cn': '结束日期不能晚于今天',
    en: 'The end date cannot be later than today',
  },
  statRangeTooOld: {
    'zh-cn': '只能查询最近6个月的数据',
    en: 'Statistics go back at most 6 months',
  },
  statHourSpan: {
    'zh-cn': '按小时查询时时间跨度最多7天',
    en: 'Hourly figures span at most 7 days',
  },
  statDomainFormat: {
    'zh-cn': '收件域名格式错误，例如 qq.com',
    en: 'Invalid receiving domain, e.g. qq.com',
  },
  statRateRange: {
    'zh-cn': '阈值为0到100之间的百分比',
    en: 'Thresholds are percentages from 0 to 100',
  },
  statThresholdRequired: {
    'zh-cn': '请至少设置一个阈值',
    en: 'Set at least one threshold',
  },
} as const satisfies RuleMessages;
