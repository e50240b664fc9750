import type { ErrorDefinition } from './error-definition.ts';

/** SMS content view (`/sms/smsContent`). */
export const SMS_CONTENT_VIEW_ERRORS = {
  SMS_CONTENT_VIEW_PAID_ONLY: {
    status: 403,
    'zh-cn': '该功能仅对付费用户开放',
    en: 'The function is open only to paid users',
  },
} as const satisfies Record<string, ErrorDefinition>;
