import type { ErrorDefinition } from './error-definition.ts';

/**
 * Invoices (fapiao; issue 18, product-spec §8): the profile, applications against the invoiceable
 * amount, postage from the balance, and the operator's processing.
 */
export const INVOICE_ERRORS = {
  INVOICE_NOT_FOUND: {
    status: 404,
    'zh-cn': '发票申请不存在',
    en: 'Invoice application not found',
  },
  INVOICE_PROFILE_REQUIRED: {
    status: 428,
    'zh-cn': '请先填写发票信息',
    en: 'Fill in the invoice details first',
  },
  INVOICE_AMOUNT_EXCEEDED: {
    status: 422,
    'zh-cn': '申请金额超过可开票金额{available}元',
    en: 'The amount exceeds the invoiceable amount of {available} yuan',
  },
  INVOICE_ELECTRONIC_LIMIT: {
    status: 422,
    'zh-cn': '电子发票额度不足(单张最多{max}元), 请选择纸质发票',
    en: 'The balance of electronic invoice is insufficient (at most {max} yuan per invoice), please select paper invoice',
  },
  INVOICE_POSTAGE_BALANCE: {
    status: 402,
    'zh-cn': '账户余额{balance}元不足以支付{postage}元邮费, 请先充值, 或选择到付, 或申请满{free}元包邮',
    en: 'The balance of {balance} yuan cannot cover the {postage} yuan postage: recharge first, choose pay on arrival, or apply for {free} yuan or more to ship free',
  },
  INVOICE_STATUS_CONFLICT: {
    status: 409,
    'zh-cn': '发票状态({status})不允许此操作, 请刷新后重试',
    en: 'The invoice is {status}, so this cannot be done; refresh and try again',
  },
  INVOICE_DELIVERY_MISMATCH: {
    status: 409,
    'zh-cn': '该发票的寄送方式({delivery})不允许此操作',
    en: 'This invoice is delivered by {delivery}, so this cannot be done',
  },
} satisfies Record<string, ErrorDefinition>;
