import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the SMS task form. */
export const SMS_TASK_RULES = {
  smsTaskName: { 'zh-cn': '请输入任务名称，最多64个字符', en: 'Enter a task name of at most 64 characters' },
  smsTaskTemplate: { 'zh-cn': '请选择短信模板', en: 'Choose an SMS template' },
  smsTaskLists: { 'zh-cn': '请选择1到5个联系人列表', en: 'Choose 1 to 5 contact lists' },
  smsTaskSendAt: { 'zh-cn': '请选择发送时间', en: 'Choose the send time' },
} as const satisfies RuleMessages;
