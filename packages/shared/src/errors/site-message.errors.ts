import type { ErrorDefinition } from './error-definition.ts';

/** The message centre's settings: notifiers and SMS notices. */
export const SITE_MESSAGE_ERRORS = {
  MESSAGE_NOTIFIER_LIMIT: {
    status: 400,
    'zh-cn': '最多设置{max}个通知邮箱和{max}个通知手机号',
    en: 'Up to {max} notification email addresses and {max} phone numbers',
  },
  MESSAGE_NOTIFIER_DUPLICATE: {
    status: 409,
    'zh-cn': '{address} 已是通知人',
    en: '{address} is already a notifier',
  },
  MESSAGE_NOTIFIER_NOT_FOUND: {
    status: 404,
    'zh-cn': '通知人不存在',
    en: 'Notifier not found',
  },
  MESSAGE_NOTIFIER_REQUIRED: {
    status: 400,
    'zh-cn': '至少需要一个通知成员：短信通知开启时须保留至少一个通知手机号',
    en: 'At least one notification member: SMS notices need at least one notification phone',
  },
  MESSAGE_SMS_PAID_ONLY: {
    status: 403,
    'zh-cn': '该功能仅对付费用户开放：免费用户不能开启短信通知',
    en: 'The function is open only to paid users: free accounts cannot turn on SMS notices',
  },
} as const satisfies Record<string, ErrorDefinition>;
