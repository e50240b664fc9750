import type { RuleMessages } from './error-definition.ts';

export const EXPORT_RULES = {
  exportTypeInvalid: {
    'zh-cn': '未知的导出类型',
    en: 'Unknown export type',
  },
} as const satisfies RuleMessages;
