import type { ErrorDefinition } from './error-definition.ts';

/**
 * Email subscriptions (issue 21): the console's `/subInvite` calls and the public page's form.
 * The public side never says why an address was refused (whether it bounced or complained is
 * the account's business, not a visitor's): it answers product-spec §8's 'Subscription failed'.
 */
export const SUBSCRIPTION_ERRORS = {
  SUBSCRIPTION_NOT_FOUND: {
    status: 404,
    'zh-cn': '订阅关系不存在',
    en: 'The subscription does not exist',
  },
  SUBSCRIPTION_API_KEY_INVALID: {
    status: 400,
    'zh-cn': 'API_USER或API_KEY错误',
    en: 'The API_USER or API_KEY is incorrect',
  },
  SUBSCRIPTION_API_KEY_REQUIRED: {
    status: 400,
    'zh-cn': '更换API_USER时请填写其API_KEY',
    en: 'Enter the API_KEY of the new API_USER',
  },
  SUBSCRIPTION_FROM_DOMAIN_UNUSABLE: {
    status: 400,
    'zh-cn': '发信地址须使用您已验证的发信域名（{domain}不可用）',
    en: 'The from address must be on one of your verified sending domains ({domain} is not)',
  },
  SUBSCRIPTION_FAILED: {
    status: 400,
    'zh-cn': '订阅失败',
    en: 'Subscription failed',
  },
  SUBSCRIPTION_UNAVAILABLE: {
    status: 410,
    'zh-cn': '该订阅已停用',
    en: 'This subscription is no longer available',
  },
  SUBSCRIPTION_LINK_INVALID: {
    status: 400,
    'zh-cn': '确认链接无效或已过期，请重新订阅',
    en: 'The confirmation link is invalid or has expired, please subscribe again',
  },
} as const satisfies Record<string, ErrorDefinition>;
