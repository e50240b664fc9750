import type { ErrorDefinition } from './error-definition.ts';

/**
 * Error codes of `/apiv2/mail/sendcalendar` (issue 19): the meeting's own parameters (the send
 * parameters keep SEND_ERRORS). SendCloud documents no numbers for them and its send table ends
 * at 40880, so Herald numbers them on from 40881 in the same 408xx send range.
 */
export const SEND_CALENDAR_ERRORS = {
  SEND_CALENDAR_FIELD_REQUIRED: {
    status: 400,
    sendCloud: 40881,
    'zh-cn': '会议日历参数{field}不能为空',
    en: 'The calendar parameter {field} is required',
  },
  SEND_CALENDAR_FIELD_INVALID: {
    status: 400,
    sendCloud: 40882,
    'zh-cn': '会议日历参数{field}格式错误',
    en: 'The calendar parameter {field} is not valid',
  },
  SEND_CALENDAR_TIME_INVALID: {
    status: 400,
    sendCloud: 40883,
    'zh-cn': '{field}格式错误, 应形如 yyyy-MM-dd HH:mm:ss',
    en: '{field} is not a valid time: use yyyy-MM-dd HH:mm:ss',
  },
  SEND_CALENDAR_TIME_ORDER: {
    status: 400,
    sendCloud: 40884,
    'zh-cn': '日程结束时间endTime必须晚于开始时间startTime',
    en: 'The end time (endTime) must be after the start time (startTime)',
  },
  SEND_CALENDAR_ADDRESS_INVALID: {
    status: 400,
    sendCloud: 40885,
    'zh-cn': '会议日历参数{field}中存在非法地址: {address}',
    en: 'The calendar parameter {field} contains an invalid address: {address}',
  },
  SEND_CALENDAR_UID_REQUIRED: {
    status: 400,
    sendCloud: 40886,
    'zh-cn': '取消或更新日历时必须传递首次发送时返回的uid',
    en: 'Cancelling or updating a meeting needs the uid returned when it was first sent',
  },
  SEND_CALENDAR_UID_INVALID: {
    status: 400,
    sendCloud: 40887,
    'zh-cn': 'uid格式错误: 1至255个字母、数字或 @ . _ - 字符',
    en: 'The uid is not valid: 1 to 255 letters, digits or @ . _ - characters',
  },
} as const satisfies Record<string, ErrorDefinition>;
