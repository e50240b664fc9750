import {
  type ErrorCode,
  labelNameSchema,
  SMS_CONTACT_DESCRIPTION_MAX,
  smsContactListNameSchema,
  smsContactNameSchema,
  smsTaskNameSchema,
} from '@herald/shared';
import { z } from 'zod';
import { type ActionDocs, DATE_RANGE, doc, PAGING, type ParamSchema, t, text } from '../apiv2/apiv2-docs.ts';

/**
 * What each /smsapi action declares (reference §11, §14): its parameters, validated before the
 * handler runs and documented in the OpenAPI document, as the /apiv2 actions do. Every call names
 * its SMS_USER and signs its parameters with the SMS_KEY.
 */
const CREDENTIALS = {
  smsUser: doc(z.string().min(1), t('SMS_USER 名称', 'The SMS_USER name'), {
    required: 'SMS_USER_MISSING',
    codes: ['SMS_USER_UNKNOWN'],
  }),
  signature: doc(
    z.string().regex(/^[0-9a-fA-F]{32}$/, 'invalid'),
    t(
      '签名：md5(SMS_KEY&按参数名排序的 k=v 用 & 连接&SMS_KEY)，不含 signature 本身，值不做 URL 编码',
      'The signature: md5(SMS_KEY&the k=v pairs sorted by name, joined by &&SMS_KEY), over every parameter but signature, values not URL-encoded',
    ),
    { required: 'SMS_SIGNATURE_MISSING', invalid: 'SMS_SIGNATURE_MISSING', codes: ['SMS_SIGNATURE_WRONG'] },
  ),
  timestamp: doc(
    z
      .string()
      .regex(/^\d{10,16}$/, 'invalid')
      .optional(),
    t(
      '可选：毫秒时间戳（见 timestamp/get），与服务器时间相差不得超过 60 秒，也参与签名',
      'Optional: a millisecond timestamp (see timestamp/get), at most 60 s from the server’s clock; it is signed too',
    ),
    { invalid: 'SMS_TIMESTAMP_INVALID', codes: ['SMS_TIMESTAMP_INVALID'] },
  ),
};

/** Codes every SMS call may answer besides its parameters'. */
export const SMS_COMMON_ERRORS: ErrorCode[] = [
  'COMMON_VALIDATION_FAILED',
  'COMMON_MALFORMED_BODY',
  'COMMON_INTERNAL',
];

export function smsParams(shape: Record<string, z.ZodType> = {}): ParamSchema {
  return z.object({ ...CREDENTIALS, ...shape });
}

const msgType = doc(
  z.enum(['0', '1', '2', '3']).optional(),
  t('0 短信（默认），1 彩信，2 国际短信，3 语音', '0 SMS (default), 1 MMS, 2 international SMS, 3 voice'),
  { invalid: 'SMS_MSG_TYPE_INVALID' },
);
const templateId = doc(z.string().min(1), t('审核通过的模板 ID', 'The id of a template that passed review'), {
  required: 'SMS_TEMPLATE_ID_EMPTY',
  codes: ['SMS_TEMPLATE_NOT_FOUND', 'SMS_TEMPLATE_NOT_PASSED', 'SMS_TEMPLATE_TYPE_MISMATCH'],
});
const phone = doc(
  z.string().min(1),
  t(
    '手机号，多个用逗号分隔，最多 2000 个；国内号码可不带 +86，国际号码需带国家码（+ 或 00）',
    'Phone numbers, comma-separated, at most 2,000; mainland numbers may omit +86, international ones need their country code (+ or 00)',
  ),
  {
    required: 'SMS_PHONE_EMPTY',
    codes: [
      'SMS_PHONE_INVALID',
      'SMS_PHONE_DUPLICATE',
      'SMS_PHONE_TOO_MANY',
      'SMS_PHONE_ALL_REFUSED',
      'SMS_FREQUENCY_MINUTE',
      'SMS_FREQUENCY_DAY',
    ],
  },
);
const vars = text(
  t(
    '模板变量，JSON 对象，如 {"code":"123456"}；值最多 32 个字符且不能含链接',
    'The template’s variables as a JSON object, e.g. {"code":"123456"}; a value is at most 32 characters and holds no link',
  ),
  {
    invalid: 'SMS_VARS_FORMAT',
    codes: ['SMS_VARS_FORMAT', 'SMS_VAR_TOO_LONG', 'SMS_VAR_HAS_URL', 'SMS_VAR_MISSING'],
  },
);
const sendRequestId = text(
  t(
    '请求 ID：一小时内重复的请求返回第一次的结果，不再发送',
    'Request id: a repeat within an hour answers what the first call answered and sends nothing',
  ),
);
const labelId = doc(
  z.string().regex(/^\d+$/, 'invalid').optional(),
  t('短信标签 ID（见 label/list），须为本账号的短信标签', 'An SMS label id (see label/list) of this account'),
  { invalid: 'SMS_LABEL_NOT_FOUND', codes: ['SMS_LABEL_NOT_FOUND'] },
);
const tag = text(t('自定义标记，随事件推送', 'Your own tag, pushed back with the events'));
const code = doc(z.string().regex(/^\d{4,6}$/, 'invalid'), t('验证码，4–6 位数字', 'The code, 4–6 digits'), {
  required: 'SMS_CODE_INVALID',
  invalid: 'SMS_CODE_INVALID',
});

const SEND_INFO = z.object({
  successCount: z.number(),
  smsIds: z.array(z.string()),
  failedCount: z.number().optional(),
  items: z
    .array(z.object({ phone: z.string(), vars: z.record(z.string(), z.string()), message: z.string() }))
    .optional(),
});

const SEND_ERRORS: ErrorCode[] = [
  'SMS_NOT_ALLOWED',
  'SMS_TEST_LIMIT',
  'ACCOUNT_SUSPENDED',
  'ACCOUNT_FROZEN',
  'LEDGER_SMS_BALANCE_INSUFFICIENT',
];

const partial = t(
  '部分号码被拒时 statusCode 为 311，info.items 列出被拒的号码和原因；多个号码全部被拒时为 312（result 为 false），info.items 同样列出。',
  'When some numbers are refused, statusCode is 311 and info.items lists them with the reason; when several numbers are all refused it is 312 (result false), with the same info.items.',
);

export const SMS_SEND: ActionDocs = {
  summary: t('发送模板短信', 'Send a template SMS'),
  description: partial,
  params: smsParams({ templateId, phone, vars, msgType, labelId, tag, sendRequestId }),
  info: SEND_INFO,
  errors: SEND_ERRORS,
};

export const SMS_SENDX: ActionDocs = {
  summary: t('发送模板短信，每个号码各自的变量', 'Send a template SMS with variables per number'),
  description: partial,
  params: smsParams({
    templateId,
    tos: doc(
      z.string().min(1),
      t(
        '收件人，JSON 数组，如 [{"phone":"13800138000","vars":{"code":"1234"}}]，最多 200 个',
        'Recipients as a JSON array, e.g. [{"phone":"13800138000","vars":{"code":"1234"}}], at most 200',
      ),
      {
        required: 'SMS_PHONE_EMPTY',
        codes: [
          'SMS_VARS_FORMAT',
          'SMS_PHONE_INVALID',
          'SMS_PHONE_DUPLICATE',
          'SMS_PHONE_TOO_MANY',
          'SMS_PHONE_ALL_REFUSED',
        ],
      },
    ),
    msgType,
    labelId,
    tag,
    sendRequestId,
  }),
  info: SEND_INFO,
  errors: SEND_ERRORS,
};

export const SMS_SEND_CODE: ActionDocs = {
  summary: t('发送验证码短信（无需模板）', 'Send a verification code (no template)'),
  params: smsParams({
    phone,
    code,
    signId: text(t('签名 ID（或 signName）', 'The signature id (or signName)'), {
      codes: ['SMS_SIGN_UNUSABLE'],
    }),
    signName: text(t('签名名称（或 signId）', 'The signature name (or signId)')),
    msgType,
    labelId,
    sendRequestId,
  }),
  info: SEND_INFO,
  errors: SEND_ERRORS,
};

export const SMS_SEND_VOICE: ActionDocs = {
  summary: t('发送语音验证码', 'Send a voice verification code'),
  params: smsParams({ phone, code, labelId, sendRequestId }),
  info: SEND_INFO,
  errors: SEND_ERRORS,
};

export const SMS_STATUS_QUERY: ActionDocs = {
  summary: t('查询短信状态', 'Query SMS statuses'),
  description: t(
    'statusCode：200 成功，4xx 处理失败（发送前），5xx 发送失败（运营商回执）。查询跨度最多一个月。',
    'statusCode: 200 success, 4xx processing failure (before sending), 5xx send failure (the carrier’s receipt). A query spans a month at most.',
  ),
  params: smsParams({
    smsIds: text(t('smsId，多个用逗号分隔', 'smsIds, comma-separated')),
    phones: text(
      t(
        '手机号（E.164，如 +8613800138000），多个用逗号分隔',
        'Phone numbers (E.164, e.g. +8613800138000), comma-separated',
      ),
    ),
    msgTypeStr: text(t('消息类型 0–3', 'Message type 0–3'), { invalid: 'SMS_MSG_TYPE_INVALID' }),
    templateId: text(t('模板 ID', 'Template id')),
    ...DATE_RANGE,
    ...PAGING,
  }),
  info: z.object({
    count: z.number(),
    voList: z.array(
      z.object({
        smsId: z.string(),
        msgType: z.number(),
        receiver: z.string(),
        requestTime: z.string(),
        updateTime: z.string(),
        sendLog: z.string(),
        smsUser: z.string(),
        status: z.string(),
        statusText: z.string(),
        statusCode: z.number(),
        templateId: z.number().nullable(),
        templateName: z.string(),
      }),
    ),
  }),
  errors: ['SMS_QUERY_SPAN'],
};

const counts = (names: string[]) => z.object(Object.fromEntries(names.map((n) => [n, z.number()])));

export const SMS_SEND_DAY: ActionDocs = {
  summary: t('按天统计短信发送', 'SMS sent per day'),
  description: t(
    '北京时间每天一行：请求数、发送成功数、处理失败数、发送失败数、等待回执数、计费条数（交给运营商的条数，长短信按条计）和成功率（%）。',
    'One row per Beijing day: requests, delivered, processing failures, send failures, waiting for receipt, billed parts (parts handed to a carrier, a long SMS counting each part) and the delivered ratio (%).',
  ),
  params: smsParams({ ...DATE_RANGE }),
  info: z.object({
    dataList: z.array(
      z.object({
        sendDate: z.string(),
        requestNum: z.number(),
        sendNum: z.number(),
        processFailedNum: z.number(),
        sendFailedNum: z.number(),
        waitingNum: z.number(),
        billingNum: z.number(),
        sendRatio: z.number(),
      }),
    ),
  }),
  errors: ['SMS_QUERY_SPAN'],
};

export const SMS_PROCESS_FAILED: ActionDocs = {
  summary: t('处理失败原因统计', 'Processing failures by reason'),
  params: smsParams({ ...DATE_RANGE }),
  info: counts([
    'globalBlackListNum',
    'userBlackListNum',
    'unsubscribleNum',
    'keyWordFilterNum',
    'errorVarsNum',
    'varsContentTooLongNum',
    'frequencyNum',
    'encodingExceptionNum',
    'sendTypeUnsupportedNum',
    'othersNum',
  ]),
  errors: ['SMS_QUERY_SPAN'],
};

export const SMS_SEND_FAILED: ActionDocs = {
  summary: t('发送失败原因统计', 'Send failures by reason'),
  params: smsParams({ ...DATE_RANGE }),
  info: counts([
    'emptyPhoneNumberNum',
    'outOfServiceNum',
    'complaintsNum',
    'busyNum',
    'noAnswerNum',
    'interceptNum',
    'breakDownNum',
    'notInServiceNum',
    'shutDownNum',
    'othersNum',
  ]),
  errors: ['SMS_QUERY_SPAN'],
};

const SIGN = z.object({
  id: z.number(),
  signName: z.string(),
  signTypeDesc: z.string(),
  verifyStatus: z.number(),
  createTime: z.string(),
  updateTime: z.string(),
});
const signType = doc(
  z.enum(['0', '1']).optional(),
  t('签名类型：0 国内，1 国际', 'Signature type: 0 domestic, 1 international'),
);
const signId = doc(z.string().regex(/^\d+$/, 'invalid'), t('签名 ID', 'The signature id'), {
  required: 'SMS_SIGN_NOT_FOUND',
  invalid: 'SMS_SIGN_NOT_FOUND',
});
const signName = doc(
  z.string().min(1),
  t(
    '签名名称：2–12 个字母、数字或汉字（见产品规则）',
    'The signature name: 2–12 letters, digits or Chinese characters (see the rules)',
  ),
  { required: 'COMMON_VALIDATION_FAILED' },
);
const SIGN_NOTE = t(
  'verifyStatus：0 审核中，1 通过，-1 未通过。',
  'verifyStatus: 0 under review, 1 passed, -1 rejected.',
);

export const SMS_SIGN_LIST: ActionDocs = {
  summary: t('查询签名列表', 'List signatures'),
  description: SIGN_NOTE,
  params: smsParams({ signType, ...PAGING }),
  info: z.object({ total: z.number(), dataList: z.array(SIGN) }),
};
export const SMS_SIGN_GET: ActionDocs = {
  summary: t('查询签名', 'Get a signature'),
  description: SIGN_NOTE,
  params: smsParams({ id: signId }),
  info: z.object({ data: SIGN }),
};
export const SMS_SIGN_SAVE: ActionDocs = {
  summary: t('新建签名（提交审核）', 'Add a signature (submitted for review)'),
  params: smsParams({ signName, signType }),
  info: z.object({ data: SIGN }),
  errors: ['SMS_SIGN_NAME_TAKEN'],
};
export const SMS_SIGN_UPDATE: ActionDocs = {
  summary: t('修改签名（重新审核）', 'Change a signature (reviewed again)'),
  params: smsParams({ id: signId, signName, signType }),
  info: z.object({ data: SIGN }),
  errors: ['SMS_SIGN_NAME_TAKEN'],
};

const TEMPLATE = z.object({
  templateId: z.number(),
  templateName: z.string(),
  msgType: z.number(),
  smsType: z.number(),
  isVerify: z.number(),
  templateContent: z.string(),
  createTime: z.string(),
  updateTime: z.string(),
});
const templateIdStr = doc(z.string().regex(/^\d+$/, 'invalid'), t('模板 ID', 'The template id'), {
  required: 'SMS_TEMPLATE_ID_EMPTY',
  invalid: 'SMS_TEMPLATE_NOT_FOUND',
  codes: ['SMS_TEMPLATE_NOT_FOUND'],
});
const TEMPLATE_NOTE = t(
  'isVerify：0 审核中，1 通过，-1 未通过，-2 未提交；smsType：0 验证码，1 通知，2 营销。',
  'isVerify: 0 under review, 1 passed, -1 rejected, -2 not submitted; smsType: 0 verification code, 1 notice, 2 marketing.',
);
const templateFields = {
  templateText: text(
    t(
      '模板内容，变量写作 %name%；签名自动加在开头，不要写在内容里',
      'The text, variables written %name%; the signature goes in front by itself, do not write it in the text',
    ),
  ),
  signId: text(t('签名 ID（或 signName）', 'The signature id (or signName)')),
  signName: text(t('签名名称（或 signId）', 'The signature name (or signId)'), {
    codes: ['SMS_SIGN_UNUSABLE'],
  }),
  signPositionStr: text(
    t('签名位置：Herald 总把签名放在开头', 'Signature position: Herald always puts it in front'),
  ),
  smsTypeStr: doc(
    z.enum(['0', '1', '2']).optional(),
    t('0 验证码，1 通知（默认），2 营销', '0 verification code, 1 notice (default), 2 marketing'),
  ),
  msgType: doc(
    z.enum(['0', '2']).optional(),
    t('0 国内短信（默认），2 国际短信', '0 domestic SMS (default), 2 international SMS'),
  ),
};

export const SMS_TEMPLATE_LIST: ActionDocs = {
  summary: t('查询短信模板列表', 'List SMS templates'),
  description: TEMPLATE_NOTE,
  params: smsParams({
    isVerifyStr: doc(z.enum(['0', '1', '-1', '-2']).optional(), t('审核状态', 'Review state')),
    ...PAGING,
  }),
  info: z.object({ total: z.number(), dataList: z.array(TEMPLATE) }),
};
export const SMS_TEMPLATE_GET: ActionDocs = {
  summary: t('查询短信模板', 'Get an SMS template'),
  description: TEMPLATE_NOTE,
  params: smsParams({ templateIdStr }),
  info: z.object({ data: TEMPLATE }),
};
export const SMS_TEMPLATE_ADD: ActionDocs = {
  summary: t('新建短信模板（未提交）', 'Add an SMS template (not submitted)'),
  description: t(
    '规则与控制台相同；变量没有示例时，以变量名作为示例。',
    'The console’s rules apply; a variable without an example gets its name as the example.',
  ),
  params: smsParams({
    templateName: doc(
      z.string().min(1),
      t('模板名称：字母、数字、下划线', 'Template name: letters, digits, underscore'),
      {
        required: 'COMMON_VALIDATION_FAILED',
      },
    ),
    ...templateFields,
  }),
  info: z.object({ data: TEMPLATE }),
};
export const SMS_TEMPLATE_UPDATE: ActionDocs = {
  summary: t('修改短信模板（回到未提交）', 'Change an SMS template (back to not submitted)'),
  params: smsParams({ templateIdStr, templateName: text(t('模板名称', 'Template name')), ...templateFields }),
  info: z.object({ data: TEMPLATE }),
};
export const SMS_TEMPLATE_SUBMIT: ActionDocs = {
  summary: t('提交短信模板审核', 'Submit an SMS template for review'),
  params: smsParams({ templateIdStr }),
  info: z.object({ data: TEMPLATE }),
};
export const SMS_TEMPLATE_DELETE: ActionDocs = {
  summary: t('删除短信模板', 'Delete an SMS template'),
  params: smsParams({ templateIdStr }),
};

const LABEL = z.object({
  labelId: z.number(),
  labelName: z.string(),
  createTime: z.string(),
  updateTime: z.string(),
  gmtCreated: z.string(),
  gmtModified: z.string(),
});
const LABEL_NOTE = t(
  '短信标签与邮件标签相互独立；时间为北京时间 yyyy-MM-dd HH:mm:ss，createTime/gmtCreated、updateTime/gmtModified 两种写法等值。',
  'SMS labels are apart from email labels; times are Beijing time, yyyy-MM-dd HH:mm:ss, createTime/gmtCreated and updateTime/gmtModified being the same values.',
);
const labelIdRequired = doc(z.string().regex(/^\d+$/, 'invalid'), t('短信标签 ID', 'The SMS label id'), {
  required: 'SMS_LABEL_NOT_FOUND',
  invalid: 'SMS_LABEL_NOT_FOUND',
  codes: ['SMS_LABEL_NOT_FOUND'],
});
const labelName = doc(
  labelNameSchema,
  t(
    '标签名称，1–255 个字符，在本账号的短信标签中唯一',
    'The label name, 1–255 characters, unique among this account’s SMS labels',
  ),
  { required: 'SMS_LABEL_NAME_INVALID', invalid: 'SMS_LABEL_NAME_INVALID', codes: ['SMS_LABEL_NAME_TAKEN'] },
);

export const SMS_LABEL_LIST: ActionDocs = {
  summary: t('查询短信标签列表', 'List SMS labels'),
  description: LABEL_NOTE,
  params: smsParams({
    labelName: text(t('标签名称包含的文字', 'Text the label name contains')),
    ...PAGING,
  }),
  info: z.object({ total: z.number(), count: z.number(), dataList: z.array(LABEL) }),
};
export const SMS_LABEL_GET: ActionDocs = {
  summary: t('查询短信标签', 'Get an SMS label'),
  description: LABEL_NOTE,
  params: smsParams({ labelId: labelIdRequired }),
  info: z.object({ data: LABEL }),
};
export const SMS_LABEL_SAVE: ActionDocs = {
  summary: t('添加短信标签', 'Add an SMS label'),
  description: LABEL_NOTE,
  params: smsParams({ labelName }),
  info: z.object({ data: LABEL }),
};
export const SMS_LABEL_UPDATE: ActionDocs = {
  summary: t('修改短信标签名称', 'Rename an SMS label'),
  description: LABEL_NOTE,
  params: smsParams({ labelId: labelIdRequired, labelName }),
  info: z.object({ data: LABEL }),
};
export const SMS_LABEL_DELETE: ActionDocs = {
  summary: t('删除短信标签', 'Delete an SMS label'),
  description: t(
    '已发送短信保留原标签 ID，不再对应标签。',
    'SMS already sent keep the label id, which then names no label.',
  ),
  params: smsParams({ labelId: labelIdRequired }),
  info: z.object({ count: z.number() }),
};

/*
 * Contact lists (issue 17; reference §11 names smsContactList/list|save|update|delete and "list
 * members endpoints"): a list by its id (contactListId) and name (contactListName, as
 * sendContactListTask names it); a member by its list and its number, one per call.
 */
const CONTACT_LIST = z.object({
  contactListId: z.number(),
  contactListName: z.string(),
  description: z.string(),
  memberCount: z.number(),
  varNames: z.array(z.string()),
  importing: z.boolean(),
  createTime: z.string(),
  updateTime: z.string(),
});
const CONTACT_MEMBER = z.object({
  phone: z.string(),
  name: z.string(),
  vars: z.record(z.string(), z.string()),
  createTime: z.string(),
});
const CONTACT_NOTE = t(
  '号码按短信接口的规则读取（国内号码可不带 +86），以 E.164 格式保存；一个列表最多 1,000,000 个号码；列表正在导入文件时不接受修改（405）。时间为北京时间 yyyy-MM-dd HH:mm:ss。',
  'Numbers are read as the send calls read them (mainland numbers may omit +86) and kept in E.164; a list holds at most 1,000,000 numbers and takes no change while a file import runs on it (405). Times are Beijing time, yyyy-MM-dd HH:mm:ss.',
);
const contactListId = doc(z.string().regex(/^\d+$/, 'invalid'), t('联系人列表 ID', 'The contact list id'), {
  required: 'SMS_CONTACT_LIST_NOT_FOUND',
  invalid: 'SMS_CONTACT_LIST_NOT_FOUND',
  codes: ['SMS_CONTACT_LIST_NOT_FOUND'],
});
const contactListName = doc(
  smsContactListNameSchema,
  t('列表名称，1–64 个字符，在本账号中唯一', 'The list name, 1–64 characters, unique in the account'),
  {
    required: 'SMS_CONTACT_LIST_NAME_INVALID',
    invalid: 'SMS_CONTACT_LIST_NAME_INVALID',
    codes: ['SMS_CONTACT_LIST_NAME_TAKEN'],
  },
);
const contactDescription = doc(
  z.string().max(SMS_CONTACT_DESCRIPTION_MAX, 'smsContactDescription').optional(),
  t('描述，最多 200 个字符', 'A description of at most 200 characters'),
);
const memberPhone = doc(
  z.string().min(1),
  t(
    '手机号；国内号码可不带 +86，国际号码需带国家码（+ 或 00）',
    'The mobile number; mainland numbers may omit +86, international ones need their country code (+ or 00)',
  ),
  { required: 'SMS_PHONE_EMPTY', codes: ['SMS_PHONE_INVALID', 'SMS_CONTACT_MEMBER_NOT_FOUND'] },
);
const memberName = doc(
  smsContactNameSchema.optional(),
  t('姓名，最多 64 个字符', 'The name, at most 64 characters'),
);
const memberVars = text(
  t(
    '自定义变量，JSON 对象，如 {"city":"上海"}；最多 10 个，变量名为字母、数字或下划线，值最多 32 个字符且不含链接',
    'Custom variables as a JSON object, e.g. {"city":"Shanghai"}: at most 10, names of letters, digits or underscores, values of at most 32 characters without links',
  ),
  { codes: ['SMS_CONTACT_VARS_INVALID'] },
);

export const SMS_CONTACT_LIST_LIST: ActionDocs = {
  summary: t('查询联系人列表', 'List contact lists'),
  description: CONTACT_NOTE,
  params: smsParams({
    contactListName: text(t('列表名称包含的文字', 'Text the list name contains')),
    ...PAGING,
  }),
  info: z.object({ total: z.number(), count: z.number(), dataList: z.array(CONTACT_LIST) }),
};
export const SMS_CONTACT_LIST_SAVE: ActionDocs = {
  summary: t('添加联系人列表', 'Add a contact list'),
  description: CONTACT_NOTE,
  params: smsParams({ contactListName, description: contactDescription }),
  info: z.object({ data: CONTACT_LIST }),
};
export const SMS_CONTACT_LIST_UPDATE: ActionDocs = {
  summary: t('修改联系人列表的名称或描述', 'Rename a contact list or change its description'),
  description: CONTACT_NOTE,
  params: smsParams({ contactListId, contactListName, description: contactDescription }),
  info: z.object({ data: CONTACT_LIST }),
  errors: ['SMS_CONTACT_LIST_BUSY'],
};
export const SMS_CONTACT_LIST_DELETE: ActionDocs = {
  summary: t('删除联系人列表及其全部号码', 'Delete a contact list and all its numbers'),
  description: CONTACT_NOTE,
  params: smsParams({ contactListId }),
  info: z.object({ count: z.number() }),
  errors: ['SMS_CONTACT_LIST_BUSY'],
};
export const SMS_CONTACT_MEMBER_LIST: ActionDocs = {
  summary: t('查询联系人列表中的号码', 'List the numbers of a contact list'),
  description: CONTACT_NOTE,
  params: smsParams({
    contactListId,
    query: text(t('号码或姓名包含的文字', 'Text the number or the name contains')),
    ...PAGING,
  }),
  info: z.object({ total: z.number(), count: z.number(), dataList: z.array(CONTACT_MEMBER) }),
};
export const SMS_CONTACT_MEMBER_ADD: ActionDocs = {
  summary: t('向联系人列表添加一个号码', 'Add a number to a contact list'),
  description: CONTACT_NOTE,
  params: smsParams({ contactListId, phone: memberPhone, name: memberName, vars: memberVars }),
  info: z.object({ data: CONTACT_MEMBER }),
  errors: ['SMS_CONTACT_MEMBER_EXISTS', 'SMS_CONTACT_LIST_FULL', 'SMS_CONTACT_LIST_BUSY'],
};
export const SMS_CONTACT_MEMBER_UPDATE: ActionDocs = {
  summary: t('修改列表中某个号码的姓名或变量', 'Change the name or the variables of a number in a list'),
  description: t(
    '按号码找到联系人；未传的 name、vars 保持不变。',
    'The number finds the contact; name and vars left out stay as they are.',
  ),
  params: smsParams({ contactListId, phone: memberPhone, name: memberName, vars: memberVars }),
  info: z.object({ data: CONTACT_MEMBER }),
  errors: ['SMS_CONTACT_LIST_BUSY'],
};
export const SMS_CONTACT_MEMBER_DELETE: ActionDocs = {
  summary: t('从联系人列表删除一个号码', 'Delete a number from a contact list'),
  description: CONTACT_NOTE,
  params: smsParams({ contactListId, phone: memberPhone }),
  info: z.object({ count: z.number() }),
  errors: ['SMS_CONTACT_LIST_BUSY'],
};

/**
 * SMS tasks (issue 17; reference §11 `sendContactListTask`, `queryContactListTask`): a passed SMS
 * template sent to the members of up to 5 contact lists named by name, now or at executeTime.
 */
export const SMS_TASK = z.object({
  taskId: z.number(),
  contactListName: z.string(),
  taskName: z.string(),
  senderName: z.string(),
  templateId: z.number(),
  labelId: z.number().nullable(),
  memberCount: z.number(),
  status: z.string(),
  statusDesc: z.string(),
  sentCount: z.number(),
  deliveredCount: z.number(),
  failedCount: z.number(),
  skippedCount: z.number(),
  executeTime: z.string(),
  createTime: z.string(),
  endTime: z.string().nullable(),
});
const TASK_NOTE = t(
  '付费用户可用。一个号码在多个列表中只发一次；status：waiting 等待发送，sending 发送中，finished 已完成，failed 失败，cancelled 已取消。时间为北京时间 yyyy-MM-dd HH:mm:ss。',
  'For paid accounts. A number in several lists is sent once; status: waiting, sending, finished, failed or cancelled. Times are Beijing time, yyyy-MM-dd HH:mm:ss.',
);
export const SMS_TASK_SEND: ActionDocs = {
  summary: t('向联系人列表发送短信任务', 'Send an SMS task to contact lists'),
  description: TASK_NOTE,
  params: smsParams({
    contactListName: doc(
      z.string().min(1),
      t('联系人列表名称，多个用逗号分隔，最多 5 个', 'Contact list names, comma-separated, at most 5'),
      {
        required: 'SMS_TASK_LISTS_INVALID',
        codes: ['SMS_CONTACT_LIST_NOT_FOUND', 'SMS_TASK_LIST_IMPORTING'],
      },
    ),
    taskName: doc(smsTaskNameSchema, t('任务名称，最多 64 个字符', 'The task name, at most 64 characters')),
    templateId: doc(
      z.string().regex(/^\d+$/, 'invalid'),
      t('审核通过的短信模板 ID', 'The id of a passed SMS template'),
      {
        required: 'SMS_TEMPLATE_ID_EMPTY',
        invalid: 'SMS_TEMPLATE_NOT_FOUND',
        codes: ['SMS_TEMPLATE_NOT_FOUND', 'SMS_TEMPLATE_NOT_PASSED', 'SMS_TASK_TEMPLATE_KIND'],
      },
    ),
    senderName: text(
      t(
        '可选：审核通过的签名名称，替代模板自带的签名',
        'Optional: the name of a passed signature, in place of the template’s',
      ),
      { codes: ['SMS_SIGN_UNUSABLE'] },
    ),
    labelId,
    executeTime: text(
      t(
        '可选：定时发送时间 yyyy-MM-dd HH:mm:ss（北京时间），不填则立即发送',
        'Optional: when to send, yyyy-MM-dd HH:mm:ss Beijing time; now when absent',
      ),
      { codes: ['SMS_TASK_TIME_INVALID', 'SMS_TASK_TIME_PAST'] },
    ),
  }),
  info: SMS_TASK,
  errors: ['SMS_TASK_PAID_ONLY', 'SMS_TASK_LIST_EMPTY', 'SMS_NOT_ALLOWED'],
};
export const SMS_TASK_QUERY: ActionDocs = {
  summary: t('查询短信任务', 'Query an SMS task'),
  description: TASK_NOTE,
  params: smsParams({
    taskId: doc(z.string().regex(/^\d+$/, 'invalid'), t('任务 ID', 'The task id'), {
      required: 'SMS_TASK_NOT_FOUND',
      invalid: 'SMS_TASK_NOT_FOUND',
      codes: ['SMS_TASK_NOT_FOUND'],
    }),
  }),
  info: SMS_TASK,
};
