import type { ErrorDefinition, RuleMessages } from './error-definition.ts';

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

/** Field-rule messages of the unsubscribe page designer (product-spec §3, §5). */
export const UNSUBSCRIBE_RULES = {
  unsubscribePageNameRequired: {
    'zh-cn': '请输入页面名称',
    en: 'Enter the page name',
  },
  unsubscribePageNameLength: {
    'zh-cn': '页面名称最多64个字符',
    en: 'The page name has at most 64 characters',
  },
  unsubscribePageColour: {
    'zh-cn': '颜色格式为 #rgb 或 #rrggbb，例如 #1677ff',
    en: 'Colours are #rgb or #rrggbb, e.g. #1677ff',
  },
  unsubscribePageLogoUrl: {
    'zh-cn': 'Logo 地址必须以 http:// 或 https:// 开头',
    en: 'The logo URL must begin with http:// or https://',
  },
  unsubscribePageJumpUrl: {
    'zh-cn': '跳转地址必须以 http:// 或 https:// 开头',
    en: 'The jump URL must begin with http:// or https://',
  },
  unsubscribePageLanguage: {
    'zh-cn': '请选择页面语言：中文、英文或中英文',
    en: 'Choose the page language: Chinese, English or both',
  },
  unsubscribePageReasons: {
    'zh-cn': '请至少选择一个退订原因',
    en: 'Choose at least one unsubscribe reason',
  },
} as const satisfies RuleMessages;
