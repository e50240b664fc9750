import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the dedicated IP purchase form and the operator's pool (product-spec §9). */
export const DEDICATED_IP_RULES = {
  dedicatedIpDomain: { 'zh-cn': '请选择发信域名', en: 'Choose a sending domain' },
  dedicatedIpCount: { 'zh-cn': '请输入1到10之间的IP数量', en: 'Enter a number of addresses from 1 to 10' },
  dedicatedIpMonths: {
    'zh-cn': '购买时长为12到36个月',
    en: 'A purchase lasts 12 to 36 months',
  },
  dedicatedIpAddress: { 'zh-cn': '请输入IPv4或IPv6地址', en: 'Enter an IPv4 or IPv6 address' },
} as const satisfies RuleMessages;
