import type { ErrorDefinition } from './error-definition.ts';

/**
 * Error codes of the unsubscribe page designer (`/config/unsubscribePage`,
 * `/config/unsubscribeConfig`, issue 7). Console-only settings: no `sendCloud` numbers.
 */
export const UNSUBSCRIBE_ERRORS = {
  UNSUBSCRIBE_PAGE_NOT_FOUND: {
    status: 404,
    'zh-cn': '退订页面不存在',
    en: 'Unsubscribe page not found',
  },
  UNSUBSCRIBE_PAGE_NAME_TAKEN: {
    status: 422,
    'zh-cn': '退订页面名称已存在',
    en: 'An unsubscribe page with this name already exists',
  },
  UNSUBSCRIBE_PAGE_LIMIT_REACHED: {
    status: 400,
    'zh-cn': '最多可创建{max}个退订页面',
    en: 'At most {max} unsubscribe pages',
  },
} as const satisfies Record<string, ErrorDefinition>;
