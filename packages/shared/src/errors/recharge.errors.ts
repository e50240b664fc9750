import type { ErrorDefinition } from './error-definition.ts';

/**
 * Recharges (issue 18): orders paid through Alipay or PayPal, offline transfers recorded by an
 * operator, and the payment providers' settings.
 */
export const RECHARGE_ERRORS = {
  RECHARGE_AMOUNT_INVALID: {
    status: 400,
    'zh-cn': '充值金额须在{min}元到{max}元之间, 最多两位小数',
    en: 'A recharge is between {min} and {max} yuan, with at most two decimals',
  },
  RECHARGE_METHOD_UNAVAILABLE: {
    status: 400,
    'zh-cn': '{method}支付暂未开通, 请选择其他支付方式',
    en: '{method} payment is not available yet; choose another method',
  },
  RECHARGE_ORDER_NOT_FOUND: {
    status: 404,
    'zh-cn': '充值订单不存在',
    en: 'Recharge order not found',
  },
  RECHARGE_ORDER_CLOSED: {
    status: 410,
    'zh-cn': '充值订单已关闭, 请重新下单',
    en: 'This recharge order is closed; place a new one',
  },
  RECHARGE_OFFLINE_INVALID: {
    status: 400,
    'zh-cn': '线下汇款须填写金额(不少于0.01元)、汇款人和1到64个字符的银行流水号',
    en: 'An offline transfer needs an amount of at least 0.01 yuan, the remitter and a bank reference of 1 to 64 characters',
  },
  PAYMENT_SETTINGS_INVALID: {
    status: 400,
    'zh-cn': '支付配置无效: {reason}',
    en: 'Invalid payment settings: {reason}',
  },
  PAYMENT_PROVIDER_UNREACHABLE: {
    status: 502,
    'zh-cn': '无法连接{provider}, 请稍后重试',
    en: 'Could not reach {provider}; try again later',
  },
  PAYMENT_PROVIDER_ERROR: {
    status: 502,
    'zh-cn': '{provider}返回错误: {reason}',
    en: '{provider} answered with an error: {reason}',
  },
} satisfies Record<string, ErrorDefinition>;
