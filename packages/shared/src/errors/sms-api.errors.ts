import type { ErrorDefinition } from './error-definition.ts';

/**
 * Codes of SMS sending (issue 20): the SendCloud SMS API (/smsapi) and the console's test send.
 * The `sendCloud` numbers are the return codes of SendCloud's SMS API (reference §11). Where its
 * documentation names a range without saying which number is which (481–483 for variables),
 * Herald's choice is noted on the code.
 */
export const SMS_API_ERRORS = {
  SMS_PHONE_EMPTY: {
    status: 400,
    sendCloud: 411,
    'zh-cn': '手机号不能为空',
    en: 'The phone number is empty',
  },
  SMS_PHONE_INVALID: {
    status: 400,
    sendCloud: 412,
    'zh-cn': '手机号格式错误：{phone}',
    en: 'Invalid phone number: {phone}',
  },
  SMS_PHONE_TOO_MANY: {
    status: 400,
    sendCloud: 412,
    'zh-cn': '一次最多发送{max}个手机号',
    en: 'At most {max} phone numbers per call',
  },
  /** 312: a call of several numbers that refused every one (info.items says why, number by number). */
  SMS_PHONE_ALL_REFUSED: {
    status: 400,
    sendCloud: 312,
    'zh-cn': '全部请求失败：{count}个手机号均被拒绝',
    en: 'Every number was refused ({count})',
  },
  SMS_PHONE_DUPLICATE: {
    status: 400,
    sendCloud: 413,
    'zh-cn': '手机号重复：{phone}',
    en: 'Duplicate phone number: {phone}',
  },
  SMS_SIGNATURE_MISSING: {
    status: 400,
    sendCloud: 421,
    'zh-cn': '签名参数错误',
    en: 'The signature parameter is missing or malformed',
  },
  SMS_SIGNATURE_WRONG: {
    status: 401,
    sendCloud: 422,
    'zh-cn': '签名错误',
    en: 'The signature does not match',
  },
  SMS_TEMPLATE_NOT_FOUND: {
    status: 404,
    sendCloud: 431,
    'zh-cn': '模板不存在',
    en: 'The template does not exist',
  },
  SMS_TEMPLATE_NOT_PASSED: {
    status: 400,
    sendCloud: 432,
    'zh-cn': '模板未提交审核或未审核通过',
    en: 'The template has not passed review',
  },
  SMS_TEMPLATE_ID_EMPTY: {
    status: 400,
    sendCloud: 433,
    'zh-cn': 'templateId不能为空',
    en: 'templateId is required',
  },
  SMS_TEMPLATE_TYPE_MISMATCH: {
    status: 400,
    sendCloud: 432,
    'zh-cn': '模板类型与msgType不一致',
    en: 'The template is not of the kind msgType asks for',
  },
  SMS_VARS_FORMAT: {
    status: 400,
    sendCloud: 441,
    'zh-cn': 'vars格式错误，应为JSON对象',
    en: 'vars must be a JSON object',
  },
  SMS_TIMESTAMP_INVALID: {
    status: 400,
    sendCloud: 461,
    'zh-cn': '时间戳无效或与服务器时间相差超过60秒',
    en: 'The timestamp is invalid or more than 60 seconds away from the server time',
  },
  /**
   * 471 is "smsUser不存在" and 472 "smsUser不能为空" in SendCloud's own table (sms/api.md, and the
   * SDKs that copy it). 474 ("用户不存在") names the account behind an SMS_USER: in Herald every
   * SMS_USER belongs to an account that cannot be deleted, so nothing answers it.
   */
  SMS_USER_MISSING: { status: 400, sendCloud: 472, 'zh-cn': 'smsUser不能为空', en: 'smsUser is required' },
  SMS_USER_UNKNOWN: { status: 401, sendCloud: 471, 'zh-cn': 'smsUser不存在', en: 'No such smsUser' },
  /** 481: a variable's value longer than 32 characters (Herald's reading of the 481-483 range). */
  SMS_VAR_TOO_LONG: {
    status: 400,
    sendCloud: 481,
    'zh-cn': '变量{name}的值超过32个字符',
    en: 'The value of variable {name} is longer than 32 characters',
  },
  /** 482: a variable's value holding a link. */
  SMS_VAR_HAS_URL: {
    status: 400,
    sendCloud: 482,
    'zh-cn': '变量{name}的值不能包含链接',
    en: 'The value of variable {name} must not hold a link',
  },
  /** 483: a placeholder of the template without a value. */
  SMS_VAR_MISSING: {
    status: 400,
    sendCloud: 483,
    'zh-cn': '缺少变量{name}的值',
    en: 'No value for variable {name}',
  },
  SMS_CODE_INVALID: {
    status: 400,
    sendCloud: 441,
    'zh-cn': '验证码应为4到6位数字',
    en: 'The code must be 4 to 6 digits',
  },
  SMS_SIGN_UNUSABLE: {
    status: 400,
    sendCloud: 421,
    'zh-cn': '短信签名不存在或未审核通过',
    en: 'The SMS signature does not exist or has not passed review',
  },
  SMS_MSG_TYPE_INVALID: {
    status: 400,
    sendCloud: 441,
    'zh-cn': 'msgType取值错误',
    en: 'msgType must be 0 (SMS), 1 (MMS), 2 (international) or 3 (voice)',
  },
  SMS_FREQUENCY_MINUTE: {
    status: 429,
    sendCloud: 496,
    'zh-cn': '一分钟内向手机号{phone}发送的短信过多（上限{limit}条）',
    en: 'Too many SMS to {phone} within one minute (at most {limit})',
  },
  SMS_FREQUENCY_DAY: {
    status: 429,
    sendCloud: 498,
    'zh-cn': '一天内向手机号{phone}发送的短信过多（上限{limit}条）',
    en: 'Too many SMS to {phone} within one day (at most {limit})',
  },
  SMS_NOT_ALLOWED: {
    status: 403,
    sendCloud: 601,
    'zh-cn': '没有发送权限：{reason}',
    en: 'Not allowed to send: {reason}',
  },
  SMS_TEST_LIMIT: {
    status: 403,
    sendCloud: 601,
    'zh-cn': '测试短信已达上限：{reason}',
    en: 'Test SMS limit reached: {reason}',
  },
  SMS_QUERY_SPAN: {
    status: 400,
    sendCloud: 441,
    'zh-cn': '查询时间跨度不能超过一个月',
    en: 'A query may span one month at most',
  },
  SMS_BLOCK_NOT_FOUND: { status: 404, 'zh-cn': '记录不存在', en: 'No such entry' },
  SMS_CARRIER_SCHEME: {
    status: 400,
    'zh-cn': '不支持的通道协议：{scheme}',
    en: 'No SMS carrier protocol {scheme} (use smpp://, cmpp://, mm7:// or mm7s:// for MMS, or sip:// for voice)',
  },
  SMS_CARRIER_NOT_FOUND: { status: 404, 'zh-cn': '通道不存在：{name}', en: 'No such SMS carrier: {name}' },
  SMS_ROUTE_COUNTRY: {
    status: 400,
    'zh-cn': '国家代码应为两位字母或*：{country}',
    en: 'The country must be two letters (ISO 3166) or *: {country}',
  },
  SMS_ROUTE_PREFIX: { status: 400, 'zh-cn': '号段前缀应为数字', en: 'The prefix must be digits' },
} as const satisfies Record<string, ErrorDefinition>;
