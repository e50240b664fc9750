import type { ErrorDefinition } from './error-definition.ts';

/** Dedicated IPs (issue 18): purchases, the operator's address pool and its assignments. */
export const DEDICATED_IP_ERRORS = {
  DEDICATED_IP_PAID_ONLY: {
    status: 403,
    'zh-cn': '该功能仅对付费用户开放',
    en: 'The function is open only to paid users',
  },
  DEDICATED_IP_PURCHASE_INVALID: {
    status: 400,
    'zh-cn': '购买独立IP须选择发信域名, 数量为1到{maxCount}个, 时长为{minMonths}到{maxMonths}个月',
    en: 'A dedicated IP purchase needs a sending domain, 1 to {maxCount} addresses and {minMonths} to {maxMonths} months',
  },
  DEDICATED_IP_BALANCE_INSUFFICIENT: {
    status: 402,
    'zh-cn': '余额不足: 本月费用{fee}元, 账户余额{balance}元; 请充值后再购买',
    en: 'Insufficient balance: this month costs {fee} yuan and the balance is {balance} yuan; recharge before buying',
  },
  DEDICATED_IP_NOT_FOUND: {
    status: 404,
    'zh-cn': '独立IP购买记录不存在',
    en: 'Dedicated IP purchase not found',
  },
  DEDICATED_IP_NOT_PENDING: {
    status: 409,
    'zh-cn': '该购买记录不在等待分配IP的状态',
    en: 'This purchase is not waiting for an address',
  },
  DEDICATED_IP_ADDRESS_INVALID: {
    status: 400,
    'zh-cn': 'IP地址格式错误',
    en: 'Not a valid IP address',
  },
  DEDICATED_IP_ADDRESS_TAKEN: {
    status: 409,
    'zh-cn': 'IP地址{address}已在地址池中',
    en: 'The address {address} is already in the pool',
  },
  DEDICATED_IP_ADDRESS_UNAVAILABLE: {
    status: 409,
    'zh-cn': 'IP地址{address}不在地址池中或不是空闲状态',
    en: 'The address {address} is not a free address of the pool',
  },
} satisfies Record<string, ErrorDefinition>;
