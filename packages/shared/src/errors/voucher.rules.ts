import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the voucher claim form and the operators' issue and grant forms. */
export const VOUCHER_RULES = {
  voucherCode: {
    'zh-cn': '请输入16位兑换码(字母和数字)',
    en: 'Enter the 16-character code (letters and digits)',
  },
  voucherAmount: {
    'zh-cn': '请输入0.01元到100000元之间的金额, 最多两位小数',
    en: 'Enter an amount between 0.01 and 100,000 yuan, with at most two decimals',
  },
  voucherCount: { 'zh-cn': '每次发放1到100张', en: 'Issue 1 to 100 at once' },
  packageType: { 'zh-cn': '请选择资源包类型', en: 'Choose the package type' },
  packageQuota: { 'zh-cn': '额度至少为1', en: 'The quota is at least 1' },
  packageMonths: { 'zh-cn': '有效期为1到36个月', en: 'Valid for 1 to 36 months' },
} as const satisfies RuleMessages;
