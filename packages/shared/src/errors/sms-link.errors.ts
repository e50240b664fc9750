import type { ErrorDefinition } from './error-definition.ts';

/** SMS link tracking. */
export const SMS_LINK_ERRORS = {
  SMS_LINK_PAID_ONLY: {
    status: 403,
    'zh-cn': '该功能仅对付费用户开放',
    en: 'The function is open only to paid users',
  },
} as const satisfies Record<string, ErrorDefinition>;
