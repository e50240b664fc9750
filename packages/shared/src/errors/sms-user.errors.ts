import type { ErrorDefinition } from './error-definition.ts';

/** SMS_USER codes (product-spec §5, §9). */
export const SMS_USER_ERRORS = {
  SMS_USER_NAME_TAKEN: {
    status: 422,
    'zh-cn': 'SMS_USER已存在',
    en: 'This SMS_USER already exists',
  },
  SMS_USER_LIMIT: {
    status: 422,
    'zh-cn': '最多添加{max}个SMS_USER',
    en: 'At most {max} SMS_USERs per account',
  },
  SMS_USER_NOT_FOUND: {
    status: 404,
    'zh-cn': 'SMS_USER不存在',
    en: 'SMS_USER not found',
  },
} as const satisfies Record<string, ErrorDefinition>;
