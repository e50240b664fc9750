import type { ErrorDefinition } from './error-definition.ts';

/**
 * Error codes of sending (issue 5): /apiv2/mail/send and sendtemplate, SMTP submission and the
 * console's test send. The `sendCloud` numbers and their meanings are SendCloud's own, from the
 * return-code table of its API v2 documentation (sendcloud_docs sources/email_v2/index.md);
 * 40878 (contentSummary) and 40879 (replyTo) come from its newer send documentation.
 */
export const SEND_ERRORS = {
  SEND_FROM_REQUIRED: {
    status: 400,
    sendCloud: 40801,
    'zh-cn': '发信人地址from不能为空',
    en: 'The sender address (from) is required',
  },
  SEND_FROM_INVALID: {
    status: 400,
    sendCloud: 40802,
    'zh-cn': '发信人地址from格式错误',
    en: 'The sender address (from) is not a valid address',
  },
  SEND_FROM_NAME_INVALID: {
    status: 400,
    sendCloud: 40804,
    'zh-cn': '发信人名称fromName格式错误',
    en: 'The sender name (fromName) is not valid: at most 255 characters',
  },
  SEND_FROM_DOMAIN_UNUSABLE: {
    status: 422,
    sendCloud: 40802,
    'zh-cn': '发信域名{domain}不是本账号可用的发信域名',
    en: 'The sender domain {domain} is not one of this account’s usable sending domains',
  },
  SEND_TO_REQUIRED: {
    status: 400,
    sendCloud: 40805,
    'zh-cn': '收件人地址不能为空',
    en: 'At least one recipient is required',
  },
  SEND_TO_INVALID: {
    status: 400,
    sendCloud: 40806,
    'zh-cn': '收件人地址数组中, 存在非法地址: {address}',
    en: 'The recipients contain an invalid address: {address}',
  },
  SEND_TO_TOO_MANY: {
    status: 400,
    sendCloud: 40807,
    'zh-cn': '收件人地址的数目不能超过{max}',
    en: 'There can be at most {max} recipients',
  },
  SEND_SUBJECT_REQUIRED: {
    status: 400,
    sendCloud: 40808,
    'zh-cn': '邮件主题subject不能为空',
    en: 'The subject is required',
  },
  SEND_SUBJECT_INVALID: {
    status: 400,
    sendCloud: 40809,
    'zh-cn': '邮件主题subject格式错误: 最多1000个字符',
    en: 'The subject is not valid: at most 1,000 characters',
  },
  SEND_REPLY_TO_INVALID: {
    status: 400,
    sendCloud: 40811,
    'zh-cn': '回复地址replyTo格式错误',
    en: 'The reply-to address (replyTo) is not valid',
  },
  SEND_REPLY_TO_TOO_MANY: {
    status: 400,
    sendCloud: 40879,
    'zh-cn': '回复地址replyTo的数目不能超过3个',
    en: 'There can be at most 3 reply-to addresses',
  },
  SEND_XSMTPAPI_EMPTY: {
    status: 400,
    sendCloud: 40812,
    'zh-cn': 'xsmtpapi不能为空',
    en: 'xsmtpapi is empty',
  },
  SEND_XSMTPAPI_INVALID: {
    status: 400,
    sendCloud: 40813,
    'zh-cn': 'xsmtpapi格式错误: {reason}',
    en: 'xsmtpapi is not valid: {reason}',
  },
  SEND_XSMTPAPI_NO_VALUE: {
    status: 400,
    sendCloud: 40814,
    'zh-cn': 'xsmtpapi解析值不能为空',
    en: 'xsmtpapi must be a non-empty JSON object',
  },
  SEND_XSMTPAPI_TO_REQUIRED: {
    status: 400,
    sendCloud: 40815,
    'zh-cn': 'xsmtpapi必须含有to字段',
    en: 'xsmtpapi must have a "to" field',
  },
  SEND_XSMTPAPI_TO_EMPTY: {
    status: 400,
    sendCloud: 40816,
    'zh-cn': 'xsmtpapi中to字段的解析值不能为空',
    en: 'The "to" field of xsmtpapi must list at least one address',
  },
  SEND_XSMTPAPI_PARSE: {
    status: 400,
    sendCloud: 40817,
    'zh-cn': 'xsmtpapi解析错误: 不是合法的JSON',
    en: 'xsmtpapi could not be parsed: it is not valid JSON',
  },
  SEND_XSMTPAPI_TO_TOO_MANY: {
    status: 400,
    sendCloud: 40827,
    'zh-cn': 'xsmtpapi中to数组长度不能超过100',
    en: 'The "to" array of xsmtpapi can hold at most 100 addresses',
  },
  SEND_ATTACHMENTS_TOO_LARGE: {
    status: 413,
    sendCloud: 40819,
    'zh-cn': '附件大小不能超过10485760字节',
    en: 'Attachments can total at most 10,485,760 bytes',
  },
  SEND_TEMPLATE_NOT_FOUND: {
    status: 404,
    sendCloud: 40823,
    'zh-cn': '邮件模板不存在',
    en: 'The email template does not exist',
  },
  SEND_TEMPLATE_NOT_PASSED: {
    status: 422,
    sendCloud: 40824,
    'zh-cn': '模板未通过审核',
    en: 'The template has not passed review',
  },
  SEND_TEMPLATE_SUBJECT_EMPTY: {
    status: 400,
    sendCloud: 40826,
    'zh-cn': '参数subject和模板主题不能同时为空',
    en: 'The subject parameter and the template’s subject cannot both be empty',
  },
  SEND_CC_INVALID: {
    status: 400,
    sendCloud: 40853,
    'zh-cn': 'cc地址格式错误: {address}',
    en: 'A cc address is not valid: {address}',
  },
  SEND_CC_TOO_MANY: {
    status: 400,
    sendCloud: 40854,
    'zh-cn': 'CC地址的数目不能超过100',
    en: 'There can be at most 100 cc addresses',
  },
  SEND_BCC_INVALID: {
    status: 400,
    sendCloud: 40856,
    'zh-cn': 'bcc地址格式错误: {address}',
    en: 'A bcc address is not valid: {address}',
  },
  SEND_BCC_TOO_MANY: {
    status: 400,
    sendCloud: 40857,
    'zh-cn': 'BCC地址的数目不能超过100',
    en: 'There can be at most 100 bcc addresses',
  },
  SEND_RESP_EMAIL_ID_INVALID: {
    status: 400,
    sendCloud: 40859,
    'zh-cn': 'respEmailId格式错误, 只能是true或false',
    en: 'respEmailId must be true or false',
  },
  SEND_HEADERS_INVALID: {
    status: 400,
    sendCloud: 40869,
    'zh-cn': 'headers格式错误: 应为JSON对象, 值为字符串',
    en: 'headers is not valid: it must be a JSON object of string values',
  },
  SEND_CONTENT_REQUIRED: {
    status: 400,
    sendCloud: 40870,
    'zh-cn': 'html和plain不能同时为空',
    en: 'html and plain cannot both be empty',
  },
  SEND_CONTENT_SUMMARY_TOO_LONG: {
    status: 400,
    sendCloud: 40878,
    'zh-cn': 'contentSummary不能超过200字节',
    en: 'contentSummary can be at most 200 bytes',
  },
  SEND_TEMPLATE_NO_CC: {
    status: 400,
    sendCloud: 40813,
    'zh-cn': '模板发送不支持cc和bcc, 收件人请放在xsmtpapi的to中',
    en: 'A template send takes no cc or bcc; put the recipients in the "to" of xsmtpapi',
  },
  /** A list send from a trigger API_USER: lists are batch mail (product-spec §6). */
  SEND_ADDRESS_LIST_BATCH_ONLY: {
    status: 403,
    sendCloud: 40820,
    'zh-cn': '此用户没有使用地址列表的权限',
    en: 'This user may not send to address lists',
  },
  SEND_ADDRESS_LIST_NOT_FOUND: {
    status: 404,
    sendCloud: 40863,
    'zh-cn': 'to中有不存在的地址列表. 参数to: {to}',
    en: 'An address list in "to" does not exist. to: {to}',
  },
  SEND_ADDRESS_LIST_TOO_MANY: {
    status: 400,
    sendCloud: 40864,
    'zh-cn': '地址列表的个数不能超过{max}',
    en: 'At most {max} address lists in "to"',
  },
  MAIL_LIST_TASK_NOT_FOUND: {
    status: 404,
    'zh-cn': '地址列表任务不存在',
    en: 'The address list task does not exist',
  },
  /** Internal: a list task's chunk came from a worker that no longer holds the task; nothing was written. */
  MAIL_LIST_TASK_LEASE_LOST: {
    status: 409,
    'zh-cn': '地址列表任务已由其他进程接手',
    en: 'Another worker took the address list task over',
  },
  SEND_LABEL_NOT_FOUND: {
    status: 404,
    sendCloud: 40106,
    'zh-cn': '标签ID对应的标签不存在',
    en: 'No label has this labelId',
  },
  SEND_LABEL_INVALID: {
    status: 400,
    sendCloud: 40105,
    'zh-cn': '标签名称的长度应该为1-255个字符',
    en: 'A label name has 1 to 255 characters',
  },
  SEND_REQUEST_ID_INVALID: {
    status: 400,
    'zh-cn': 'sendRequestId最多128个字符',
    en: 'sendRequestId has at most 128 characters',
  },
  SEND_QUOTA_EXCEEDED: {
    status: 429,
    sendCloud: 40904,
    'zh-cn':
      '额度检查失败: 今日发送额度{quota}封已用完。额度于北京时间0点恢复; 如需今天继续发送, 请升级为付费用户, 或联系平台运营人员临时提额',
    en: 'Quota check failed: today’s quota of {quota} emails is used up. It renews at 00:00 Beijing time (UTC+8); to send more today, upgrade to the paid plan or ask the platform operator for a temporary quota increase',
  },
  SEND_TEST_QUOTA_EXCEEDED: {
    status: 429,
    sendCloud: 40904,
    'zh-cn': '额度检查失败: 测试API_USER每天最多发送{quota}封, 今日已用完; 请使用正式API_USER发送',
    en: 'Quota check failed: a test API_USER sends at most {quota} emails a day, and today’s are used up; send with a normal API_USER',
  },
  SEND_MESSAGE_TOO_LARGE: {
    status: 413,
    sendCloud: 40901,
    'zh-cn': '邮件大小超过{max}字节',
    en: 'The message is larger than {max} bytes',
  },
  SEND_FAILED: {
    status: 503,
    sendCloud: 40902,
    'zh-cn': '邮件处理发生未知异常, 请稍后重试',
    en: 'The mail could not be accepted for an unexpected reason; try again later',
  },
  SEND_TEST_TOO_MANY: {
    status: 400,
    'zh-cn': '测试发送最多5个收件人',
    en: 'A test send takes at most 5 recipients',
  },
  SEND_TEST_DOMAIN_MISMATCH: {
    status: 422,
    'zh-cn': '发信地址必须使用该API_USER绑定的发信域名{domain}',
    en: 'The sender must use the API_USER’s sending domain {domain}',
  },
  SEND_TEST_NO_DOMAIN: {
    status: 422,
    'zh-cn': '该API_USER未绑定发信域名',
    en: 'This API_USER has no sending domain',
  },
} as const satisfies Record<string, ErrorDefinition>;
