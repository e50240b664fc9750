import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the timed-task form (product-spec §5 "Timed task", §8). */
export const TIMED_TASK_RULES = {
  timedTaskName: {
    'zh-cn': '请输入任务名称，最多64个字符',
    en: 'Enter a task name of at most 64 characters',
  },
  timedTaskFromName: {
    'zh-cn': '请输入发件人名称，最多64个字符',
    en: 'Enter the sender name, at most 64 characters',
  },
  timedTaskFrom: { 'zh-cn': '请输入正确的发件人邮箱', en: 'Enter a valid sender email' },
  timedTaskReplyTo: { 'zh-cn': '回复地址格式错误', en: 'The reply-to address is not valid' },
  timedTaskTemplate: { 'zh-cn': '请选择邮件模板', en: 'Choose an email template' },
  timedTaskLists: { 'zh-cn': '请选择1到5个地址列表', en: 'Choose 1 to 5 address lists' },
  timedTaskApiUser: { 'zh-cn': '请选择 API_USER', en: 'Choose an API_USER' },
  timedTaskTag: { 'zh-cn': '标记最多64个字符', en: 'A tag has at most 64 characters' },
  timedTaskSendAt: { 'zh-cn': '请选择执行时间', en: 'Choose the execution time' },
  timedTaskTimeZone: { 'zh-cn': '请选择时区', en: 'Choose the time zone' },
  timedTaskTimePast: {
    'zh-cn': '计划时间不能早于当前时间',
    en: 'Planned time cannot be before the current time',
  },
  timedTaskFiles: { 'zh-cn': '附件最多10个，总大小不超过50M', en: 'At most 10 attachments, 50M in all' },
} as const satisfies RuleMessages;
