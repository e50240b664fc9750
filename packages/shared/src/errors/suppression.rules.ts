import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the suppression lists and the email status query. */
export const SUPPRESSION_RULES = {
  suppressionAddressesRequired: {
    'zh-cn': '请输入邮件地址，多个以分号分隔',
    en: 'Enter addresses, separated by semicolons',
  },
  suppressionAddressesTooMany: {
    'zh-cn': '每条最多200个地址，以分号分隔',
    en: 'At most 200 addresses per entry, separated by semicolons',
  },
  suppressionAddressFormat: {
    'zh-cn': '邮箱格式错误，请检查每个地址',
    en: 'Invalid email format: check every address',
  },
  interceptTypeInvalid: {
    'zh-cn': '规则类型只能是地址、域名或关键字',
    en: 'A rule type is address, domain or keyword',
  },
  interceptValueRequired: { 'zh-cn': '请输入规则内容', en: 'Enter what the rule matches' },
  interceptValueFormat: {
    'zh-cn': '规则内容格式错误：地址规则填写完整邮箱，域名规则填写域名（如 example.com），关键字为2-64个字符',
    en: 'Invalid rule: an address rule takes a full address, a domain rule a domain (e.g. example.com), a keyword 2-64 characters',
  },
  emailStatusSpanTooLong: {
    'zh-cn': '查询时间跨度不能超过一个月',
    en: 'Query time span cannot exceed one month',
  },
  emailStatusRangeOrder: {
    'zh-cn': '结束时间不能早于开始时间',
    en: 'The end time cannot be earlier than the start time',
  },
} as const satisfies RuleMessages;
