import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the message settings (notifiers and switches). */
export const SITE_MESSAGE_RULES = {
  siteMessageCategory: { 'zh-cn': '请选择消息类型', en: 'Choose a kind of message' },
  siteMessageSwitch: { 'zh-cn': '请选择开启或关闭', en: 'Choose on or off' },
  siteMessageNotifierKind: { 'zh-cn': '请选择邮箱或手机号', en: 'Choose an email address or a phone number' },
  siteMessageNotifierPhone: {
    'zh-cn': '请输入11位中国大陆手机号',
    en: 'Enter an 11-digit mainland China mobile number',
  },
} as const satisfies RuleMessages;
