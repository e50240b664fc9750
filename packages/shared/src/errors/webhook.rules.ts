import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the webhook form (product-spec §5). */
export const WEBHOOK_RULES = {
  webhookUrlRequired: { 'zh-cn': '请输入接收推送的URL', en: 'Enter the URL that receives the pushes' },
  webhookUrlFormat: {
    'zh-cn': 'URL必须以http://或https://开头，例如 https://example.com/hook',
    en: 'The URL must begin with http:// or https://, e.g. https://example.com/hook',
  },
  webhookEventsRequired: { 'zh-cn': '请至少选择一个事件', en: 'Choose at least one event' },
  webhookEventUnknown: { 'zh-cn': '未知的事件类型', en: 'Unknown event type' },
  webhookApiUser: { 'zh-cn': '请选择API_USER或全部', en: 'Choose an API_USER or all' },
  webhookAppKeyFormat: {
    'zh-cn': 'App Key为8-64位字母、数字、下划线或中划线',
    en: 'The app key must be 8-64 letters, digits, underscores or hyphens',
  },
} as const satisfies RuleMessages;
