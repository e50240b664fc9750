import type { RuleMessages } from './error-definition.ts';

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
