import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the charge form and the operator's offline transfer (product-spec §5, §9). */
export const RECHARGE_RULES = {
  rechargeMethod: { 'zh-cn': '请选择支付方式', en: 'Choose a payment method' },
  rechargeAmount: {
    'zh-cn': '请输入9.9元到1000000元之间的金额, 最多两位小数',
    en: 'Enter an amount between 9.9 and 1,000,000 yuan, with at most two decimals',
  },
  rechargeOfflineAmount: {
    'zh-cn': '请输入汇款金额, 最多两位小数',
    en: 'Enter the amount transferred, with at most two decimals',
  },
  rechargeRemitter: {
    'zh-cn': '请输入汇款人, 最多100个字符',
    en: 'Enter the remitter, at most 100 characters',
  },
  rechargeBankRef: {
    'zh-cn': '请输入银行流水号, 最多64个字符',
    en: 'Enter the bank reference, at most 64 characters',
  },
} as const satisfies RuleMessages;
