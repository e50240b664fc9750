import type { ErrorDefinition } from './error-definition.ts';

/** Vouchers and benefit packages (issue 18; product-spec §3, §6, §9). */
export const VOUCHER_ERRORS = {
  VOUCHER_NOT_FOUND: {
    status: 404,
    'zh-cn': '代金券不存在',
    en: 'Voucher not found',
  },
  VOUCHER_CODE_UNKNOWN: {
    status: 404,
    'zh-cn': '兑换码无效或已被领取',
    en: 'No voucher can be claimed with this code',
  },
  VOUCHER_FREE_ACCOUNT: {
    status: 409,
    'zh-cn': '免费用户不能使用代金券, 请先充值升级为付费用户后再使用',
    en: 'Free users cannot use vouchers; top up once to become a paid user, then use them',
  },
  VOUCHER_ALREADY_USED: {
    status: 409,
    'zh-cn': '该代金券已使用',
    en: 'This voucher has already been used',
  },
  VOUCHER_EXPIRED: {
    status: 410,
    'zh-cn': '该代金券已过期',
    en: 'This voucher has expired',
  },
  VOUCHER_VOIDED: {
    status: 410,
    'zh-cn': '该代金券已作废',
    en: 'This voucher has been voided',
  },
  VOUCHER_ISSUE_INVALID: {
    status: 400,
    'zh-cn': '代金券须有0.01元到100000元的金额, 每次最多发放100张',
    en: 'A voucher is between 0.01 and 100,000 yuan, and at most 100 are issued at once',
  },
  PACKAGE_NOT_FOUND: {
    status: 404,
    'zh-cn': '资源包不存在',
    en: 'Benefit package not found',
  },
  PACKAGE_GRANT_INVALID: {
    status: 400,
    'zh-cn': '资源包须为价目表中的类型({type}), 额度至少为1, 有效期1到36个月',
    en: 'A package is of a price list type ({type}), with a quota of at least 1 and 1 to 36 months',
  },
} satisfies Record<string, ErrorDefinition>;
