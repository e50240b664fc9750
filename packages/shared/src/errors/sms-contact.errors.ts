import type { ErrorDefinition } from './error-definition.ts';

/**
 * SMS contact lists (issue 17): the console's `/sms/smsContactlists` and
 * `/sms/smsContactlistMembers`, their file imports, and the SMS API's `smsContactList/*` and
 * `smsContactListMember/*`. SendCloud's SMS API documents no numbers for contact lists
 * (reference §11), so Herald takes free ones of the 4xx range: 40x for lists, 41x (beside the
 * phone codes 411-413) for members. Import failures are console-only and carry no number.
 */
export const SMS_CONTACT_ERRORS = {
  SMS_CONTACT_LIST_NOT_FOUND: {
    status: 404,
    sendCloud: 401,
    'zh-cn': '联系人列表不存在',
    en: 'The contact list does not exist',
  },
  SMS_CONTACT_LIST_NAME_TAKEN: {
    status: 422,
    sendCloud: 402,
    'zh-cn': '联系人列表名称已存在',
    en: 'You already have a contact list with this name',
  },
  /** 403: the SMS API's name is empty or too long (the console names the field's rule instead). */
  SMS_CONTACT_LIST_NAME_INVALID: {
    status: 400,
    sendCloud: 403,
    'zh-cn': '列表名称的长度应为1到64个字符',
    en: 'A list name has 1 to 64 characters',
  },
  SMS_CONTACT_LIST_FULL: {
    status: 422,
    sendCloud: 404,
    'zh-cn': '一个联系人列表最多{max}个号码',
    en: 'A contact list holds at most {max} numbers',
  },
  /** A list with an import under way takes no other change until the import ends or is cancelled. */
  SMS_CONTACT_LIST_BUSY: {
    status: 409,
    sendCloud: 405,
    'zh-cn': '该列表正在导入，请等待导入完成或取消导入后再操作',
    en: 'An import is under way on this list: wait for it to finish or cancel it first',
  },
  SMS_CONTACT_MEMBER_NOT_FOUND: {
    status: 404,
    sendCloud: 414,
    'zh-cn': '联系人不存在',
    en: 'The contact does not exist',
  },
  SMS_CONTACT_MEMBER_EXISTS: {
    status: 422,
    sendCloud: 415,
    'zh-cn': '号码{phone}已在该列表中',
    en: '{phone} is already in this list',
  },
  /** 416: the SMS API's vars are not a JSON object of at most 10 valid names and values. */
  SMS_CONTACT_VARS_INVALID: {
    status: 400,
    sendCloud: 416,
    'zh-cn': '自定义变量格式错误：最多10个，变量名为字母、数字或下划线，值最多32个字符且不含链接',
    en: 'Custom variables: at most 10, names of letters, digits or underscores, values of at most 32 characters without links',
  },
  SMS_CONTACT_IMPORT_NOT_FOUND: {
    status: 404,
    'zh-cn': '导入记录不存在',
    en: 'The import does not exist',
  },
  SMS_CONTACT_IMPORT_MISSING: {
    status: 400,
    'zh-cn': '请选择要上传的文件',
    en: 'Choose a file to upload',
  },
  SMS_CONTACT_IMPORT_FORMAT: {
    status: 400,
    'zh-cn': '文件格式错误，请上传txt、csv、xls或xlsx文件',
    en: 'The file format is wrong: upload a txt, csv, xls or xlsx file',
  },
  SMS_CONTACT_IMPORT_TOO_LARGE: {
    status: 413,
    'zh-cn': '文件超出大小限制，最大{max}',
    en: 'The file exceeds the size limit of {max}',
  },
  SMS_CONTACT_IMPORT_EMPTY: {
    status: 400,
    'zh-cn': '上传的文件为空',
    en: 'The uploaded file is empty',
  },
  /** The file could not be read as what it claims to be (a broken or encrypted spreadsheet, a crash while reading). */
  SMS_CONTACT_IMPORT_UNREADABLE: {
    status: 400,
    'zh-cn': '上传文件无效，请重新上传',
    en: 'The uploaded file is invalid, please upload it again',
  },
  SMS_CONTACT_IMPORT_HEADER: {
    status: 400,
    'zh-cn': '表头错误：第3列起为变量名，最多10个，由字母、数字或下划线组成且不能重复',
    en: 'Header row error: from the third column on it names the variables, at most 10, of letters, digits or underscores, none twice',
  },
  SMS_CONTACT_IMPORT_TOO_MANY_ROWS: {
    status: 400,
    'zh-cn': '文件行数超出限制，最多{max}行',
    en: 'The file has too many lines: at most {max}',
  },
  SMS_CONTACT_IMPORT_FINISHED: {
    status: 409,
    'zh-cn': '导入已结束，无法取消',
    en: 'The import has already ended and cannot be cancelled',
  },
  SMS_CONTACT_IMPORT_NO_REPORT: {
    status: 404,
    'zh-cn': '该导入没有错误报告',
    en: 'This import has no error report',
  },
} as const satisfies Record<string, ErrorDefinition>;
