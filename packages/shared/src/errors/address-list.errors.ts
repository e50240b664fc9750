import type { ErrorDefinition } from './error-definition.ts';
import { SMS_CONTACT_ERRORS as SMS } from './sms-contact.errors.ts';

/**
 * Email address lists (issue 21): the console's `/mail/mailingLists` and `/mail/maillistSubInfos`,
 * their file imports, and the SendCloud calls `addresslist/*`, `addressmember/*` (v2) and
 * `list.*`, `list_member.*` (v1). SendCloud reserves 40501–40522 for address lists without
 * publishing the numbers: those below are Herald's picks inside the range. A free account is
 * answered 40820, SendCloud's "this user may not use address lists".
 *
 * An import's file problems read as the SMS contact lists' do: the same texts under this
 * entity's codes.
 */
export const ADDRESS_LIST_ERRORS = {
  ADDRESS_LIST_PAID_ONLY: {
    status: 403,
    sendCloud: 40820,
    'zh-cn': '该功能仅对付费用户开放',
    en: 'The function is open only to paid users',
  },
  ADDRESS_LIST_NOT_FOUND: {
    status: 404,
    sendCloud: 40501,
    'zh-cn': '地址列表不存在',
    en: 'The address list does not exist',
  },
  ADDRESS_LIST_ADDRESS_TAKEN: {
    status: 422,
    sendCloud: 40502,
    'zh-cn': '别称地址已存在',
    en: 'This alias address is already taken',
  },
  ADDRESS_LIST_ADDRESS_INVALID: {
    status: 400,
    sendCloud: 40503,
    'zh-cn': '别称地址格式错误：前缀为1-48位字母、数字或下划线，域名为{domain}',
    en: 'Invalid alias address: a prefix of 1-48 letters, digits or underscores, at {domain}',
  },
  ADDRESS_LIST_NAME_INVALID: {
    status: 400,
    sendCloud: 40504,
    'zh-cn': '列表名称的长度应为1到64个字符',
    en: 'A list name has 1 to 64 characters',
  },
  ADDRESS_LIST_FULL: {
    status: 422,
    sendCloud: 40505,
    'zh-cn': '一个地址列表最多{max}个地址',
    en: 'An address list holds at most {max} addresses',
  },
  ADDRESS_LIST_BUSY: {
    status: 409,
    sendCloud: 40506,
    'zh-cn': '该列表正在导入，请等待导入完成或取消导入后再操作',
    en: 'An import is under way on this list: wait for it to finish or cancel it first',
  },
  ADDRESS_LIST_UPDATE_EMPTY: {
    status: 400,
    sendCloud: 40507,
    'zh-cn': '参数须包含newAddress、name或desc',
    en: 'Give newAddress, name or desc',
  },
  ADDRESS_MEMBER_NOT_FOUND: {
    status: 404,
    sendCloud: 40511,
    'zh-cn': '地址列表成员不存在',
    en: 'The list member does not exist',
  },
  ADDRESS_MEMBER_EXISTS: {
    status: 422,
    sendCloud: 40512,
    'zh-cn': '地址{address}已在该列表中',
    en: '{address} is already in this list',
  },
  ADDRESS_MEMBER_INVALID: {
    status: 400,
    sendCloud: 40513,
    'zh-cn': '成员地址格式错误：{address}',
    en: 'Invalid member address: {address}',
  },
  ADDRESS_MEMBER_TOO_MANY: {
    status: 400,
    sendCloud: 40514,
    'zh-cn': '每次最多{max}个成员',
    en: 'At most {max} members per call',
  },
  ADDRESS_MEMBER_VARS_INVALID: {
    status: 400,
    sendCloud: 40515,
    'zh-cn': '变量格式错误：每个成员一个JSON对象，最多10个变量，变量名为字母、数字、下划线、点或连字符',
    en: 'Invalid vars: one JSON object per member, at most 10 variables named with letters, digits, underscores, dots or hyphens',
  },
  ADDRESS_MEMBER_VARS_MISMATCH: {
    status: 400,
    sendCloud: 40516,
    'zh-cn': '{field}的个数必须与members一致',
    en: '{field} must have as many entries as members',
  },
  ADDRESS_MEMBER_REQUIRED: {
    status: 400,
    sendCloud: 40517,
    'zh-cn': 'members不能为空',
    en: 'members cannot be empty',
  },
  ADDRESS_LIST_IMPORT_NOT_FOUND: SMS.SMS_CONTACT_IMPORT_NOT_FOUND,
  ADDRESS_LIST_IMPORT_MISSING: SMS.SMS_CONTACT_IMPORT_MISSING,
  ADDRESS_LIST_IMPORT_FORMAT: SMS.SMS_CONTACT_IMPORT_FORMAT,
  ADDRESS_LIST_IMPORT_TOO_LARGE: SMS.SMS_CONTACT_IMPORT_TOO_LARGE,
  ADDRESS_LIST_IMPORT_EMPTY: SMS.SMS_CONTACT_IMPORT_EMPTY,
  ADDRESS_LIST_IMPORT_UNREADABLE: SMS.SMS_CONTACT_IMPORT_UNREADABLE,
  ADDRESS_LIST_IMPORT_TOO_MANY_ROWS: SMS.SMS_CONTACT_IMPORT_TOO_MANY_ROWS,
  ADDRESS_LIST_IMPORT_FINISHED: SMS.SMS_CONTACT_IMPORT_FINISHED,
  ADDRESS_LIST_IMPORT_NO_REPORT: SMS.SMS_CONTACT_IMPORT_NO_REPORT,
  ADDRESS_LIST_IMPORT_HEADER: {
    status: 400,
    'zh-cn': '表头错误：第3列起为变量名，最多10个，由字母、数字、下划线、点或连字符组成且不能重复',
    en: 'Header row error: from the third column on it names the variables, at most 10, of letters, digits, underscores, dots or hyphens, none twice',
  },
} as const satisfies Record<string, ErrorDefinition>;
