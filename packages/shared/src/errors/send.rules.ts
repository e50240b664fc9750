import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the send area, used by its shared schemas. */
export const SEND_RULES = {
  testSendApiUserRequired: { 'zh-cn': '请选择API_USER', en: 'Choose an API_USER' },
  testSendFromRequired: { 'zh-cn': '请输入发信地址', en: 'Enter the sender address' },
  testSendFromInvalid: { 'zh-cn': '发信地址格式错误', en: 'The sender address is not valid' },
  testSendToRequired: { 'zh-cn': '请输入收件人', en: 'Enter at least one recipient' },
  testSendToTooMany: {
    'zh-cn': '最多5个收件人, 以分号分隔',
    en: 'At most 5 recipients, separated by semicolons',
  },
  testSendToInvalid: { 'zh-cn': '收件人地址格式错误', en: 'A recipient address is not valid' },
  testSendSubjectRequired: { 'zh-cn': '请输入邮件主题', en: 'Enter a subject' },
  testSendSubjectLength: { 'zh-cn': '邮件主题最多1000个字符', en: 'A subject has at most 1,000 characters' },
  testSendContentRequired: { 'zh-cn': '请输入邮件内容', en: 'Enter the content' },
  testSendTemplateRequired: { 'zh-cn': '请选择模板', en: 'Choose a template' },
} as const satisfies RuleMessages;
