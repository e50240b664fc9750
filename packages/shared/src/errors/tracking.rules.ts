import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the tracking forms. */
export const TRACKING_RULES = {
  sslCertRequired: {
    'zh-cn': '请粘贴 PEM 格式的证书内容',
    en: 'Paste the PEM certificate',
  },
  sslKeyRequired: {
    'zh-cn': '请粘贴 PEM 格式的私钥',
    en: 'Paste the PEM private key',
  },
  trackRangeTooLong: {
    'zh-cn': '只能查询最近6个月的数据',
    en: 'Only the last 6 months can be queried',
  },
  trackRangeOrder: {
    'zh-cn': '结束时间不能早于开始时间',
    en: 'The end time cannot be earlier than the start time',
  },
} as const satisfies RuleMessages;
