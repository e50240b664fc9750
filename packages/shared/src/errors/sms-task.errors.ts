import type { ErrorDefinition } from './error-definition.ts';

/**
 * SMS tasks (issue 17): the console's `/sms/smsTasks` and the SMS API's `sendContactListTask`
 * and `queryContactListTask`. The schedule codes are SendCloud's (451, 452, reference §11); for the
 * rest its documentation gives no number, so Herald takes free ones beside them (45x).
 */
export const SMS_TASK_ERRORS = {
  SMS_TASK_NOT_FOUND: {
    status: 404,
    sendCloud: 453,
    'zh-cn': '短信任务不存在',
    en: 'The SMS task does not exist',
  },
  SMS_TASK_TIME_INVALID: {
    status: 400,
    sendCloud: 451,
    'zh-cn': '定时发送时间格式错误，应为 yyyy-MM-dd HH:mm:ss',
    en: 'The send time is malformed: use yyyy-MM-dd HH:mm:ss',
  },
  SMS_TASK_TIME_PAST: {
    status: 400,
    sendCloud: 452,
    'zh-cn': '定时发送时间不能早于当前时间',
    en: 'The send time must not be in the past',
  },
  SMS_TASK_PAID_ONLY: {
    status: 403,
    sendCloud: 473,
    'zh-cn': '短信任务仅对付费用户开放',
    en: 'SMS tasks are open only to paid users',
  },
  SMS_TASK_LISTS_INVALID: {
    status: 400,
    sendCloud: 454,
    'zh-cn': '请选择1到{max}个联系人列表',
    en: 'Choose 1 to {max} contact lists',
  },
  SMS_TASK_LIST_EMPTY: {
    status: 422,
    sendCloud: 455,
    'zh-cn': '所选联系人列表没有号码',
    en: 'The chosen contact lists have no numbers',
  },
  SMS_TASK_LIST_IMPORTING: {
    status: 409,
    sendCloud: 456,
    'zh-cn': '联系人列表“{name}”正在导入，请导入完成后再发送',
    en: 'The contact list “{name}” is being imported: send once the import has finished',
  },
  SMS_TASK_TEMPLATE_KIND: {
    status: 422,
    sendCloud: 457,
    'zh-cn': '短信任务只能使用审核通过的短信模板（国内或国际），不能使用语音或彩信模板',
    en: 'An SMS task takes a passed SMS template (domestic or international), not a voice or MMS one',
  },
  SMS_TASK_NOT_CANCELLABLE: {
    status: 409,
    sendCloud: 458,
    'zh-cn': '任务已开始发送，不能取消',
    en: 'The task has started sending and can no longer be cancelled',
  },
  SMS_TASK_NOT_RESENDABLE: {
    status: 409,
    sendCloud: 459,
    'zh-cn': '只有结束后{days}天内、有失败短信且未重发过的任务可以重发',
    en: 'Only a task that ended within {days} days with failed SMS, and was not resent before, can be resent',
  },
} as const satisfies Record<string, ErrorDefinition>;
