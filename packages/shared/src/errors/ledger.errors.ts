import type { ErrorDefinition } from './error-definition.ts';

/**
 * Errors of the money ledger (issue 18): the balance gates of sending, operator adjustments and
 * prices. SMS answers SendCloud's 499 (insufficient balance, reference §11); for email SendCloud
 * documents no balance code, so its quota-check family (40904) carries Herald's own message.
 */
export const LEDGER_ERRORS = {
  LEDGER_EMAIL_BALANCE_INSUFFICIENT: {
    status: 402,
    sendCloud: 40904,
    'zh-cn': '余额不足: 账户余额{balance}元, 无法继续发送邮件; 请充值后重试',
    en: 'Insufficient balance: the account balance is {balance} yuan, which cannot cover sending; recharge and try again',
  },
  LEDGER_SMS_BALANCE_INSUFFICIENT: {
    status: 402,
    sendCloud: 499,
    'zh-cn': '余额不足: 账户余额{balance}元, 无法继续发送短信; 请充值后重试',
    en: 'Insufficient balance: the account balance is {balance} yuan, which cannot cover sending SMS; recharge and try again',
  },
  LEDGER_KEY_CONFLICT: {
    status: 409,
    'zh-cn': '幂等键{key}已用于另一笔不同的账务记录',
    en: 'The idempotency key {key} was already used for a different ledger entry',
  },
  LEDGER_ADJUSTMENT_INVALID: {
    status: 400,
    'zh-cn': '调账金额须为非零整数(分), 且须填写1到500个字符的原因',
    en: 'An adjustment needs a non-zero whole amount in fen and a reason of 1 to 500 characters',
  },
  LEDGER_PRICE_UNKNOWN: {
    status: 404,
    'zh-cn': '价格项{code}不存在',
    en: 'No price item {code}',
  },
  LEDGER_PRICE_INVALID: {
    status: 400,
    'zh-cn': '价格须为非负整数(分), 计价单位须为1、10、100或1000',
    en: 'A price is a whole number of fen, zero or more, per 1, 10, 100 or 1,000 units',
  },
} as const satisfies Record<string, ErrorDefinition>;
