import type { ErrorDefinition } from './error-definition.ts';

/** Anti-bombing template pauses (`/sms/suspend`). */
export const SMS_PAUSE_ERRORS = {
  SMS_PAUSE_NOT_FOUND: {
    status: 404,
    'zh-cn': '暂停记录不存在',
    en: 'The pause record does not exist',
  },
  SMS_PAUSE_HANDLED: {
    status: 409,
    'zh-cn': '该暂停已处理，请刷新后查看',
    en: 'This pause has already been handled; refresh to see what became of it',
  },
} as const satisfies Record<string, ErrorDefinition>;
