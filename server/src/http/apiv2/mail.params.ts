import {
  SEND_ATTACHMENTS_MAX_BYTES,
  SEND_CONTENT_SUMMARY_MAX_BYTES,
  SEND_RECIPIENTS_MAX,
  SEND_REPLY_TO_MAX,
  SEND_REQUEST_ID_MAX,
  SEND_SUBJECT_MAX,
} from '@herald/shared';
import { z } from 'zod';
import { type ActionDocs, doc, params, t, text } from './apiv2-docs.ts';

/**
 * The parameters of mail/send, mail/sendtemplate and mail/sendcalendar (reference §2–§4). The
 * send service checks them in SendCloud's order with SendCloud's codes, so every one is declared
 * optional here and names the codes the service answers; limits are the shared constants.
 */
const SENDER = {
  from: text(
    t(
      '发信人地址，可写作 "名称<地址>"；域名须为本账号可用的发信域名',
      'Sender address, may be written "Name<address>"; its domain must be one of the account’s usable sending domains',
    ),
    {
      required: 'SEND_FROM_REQUIRED',
      codes: ['SEND_FROM_INVALID', 'SEND_FROM_DOMAIN_UNUSABLE'],
    },
  ),
  fromName: text(t('发信人名称，最多 255 个字符', 'Sender name, at most 255 characters'), {
    codes: ['SEND_FROM_NAME_INVALID'],
  }),
  replyTo: text(
    t(
      `回复地址，多个用 ; 分隔，最多 ${SEND_REPLY_TO_MAX} 个`,
      `Reply-to addresses, \`;\`-separated, at most ${SEND_REPLY_TO_MAX}`,
    ),
    {
      codes: ['SEND_REPLY_TO_INVALID', 'SEND_REPLY_TO_TOO_MANY'],
    },
  ),
  labelId: text(t('标签 ID（每封邮件一个标签）', 'Label id (one label per mail)'), {
    codes: ['SEND_LABEL_NOT_FOUND'],
  }),
  labelName: text(
    t(
      '标签名称，不存在时自动创建，最多 255 个字符',
      'Label name, created when missing, at most 255 characters',
    ),
    {
      codes: ['SEND_LABEL_INVALID'],
    },
  ),
  headers: text(
    t(
      '自定义邮件头，JSON 对象字符串；以 SC-Custom- 开头的会在 webhook 中作为 userHeaders 返回',
      'Extra headers as a JSON object string; those starting with SC-Custom- come back in webhooks as userHeaders',
    ),
    {
      codes: ['SEND_HEADERS_INVALID'],
    },
  ),
  sendRequestId: text(
    t(
      `请求 ID，最多 ${SEND_REQUEST_ID_MAX} 个字符；一小时内重复的请求只处理一次`,
      `Request id, at most ${SEND_REQUEST_ID_MAX} characters; a repeat within an hour is processed once`,
    ),
    {
      codes: ['SEND_REQUEST_ID_INVALID'],
    },
  ),
  respEmailId: text(
    t(
      '是否返回 emailId 列表：true（默认）或 false',
      'Whether to answer the emailId list: true (default) or false',
    ),
    {
      codes: ['SEND_RESP_EMAIL_ID_INVALID'],
    },
  ),
  useNotification: text(
    t(
      '是否请求已读回执（发往 from）：true 或 false（默认）',
      'Ask for a read receipt (to from): true or false (default)',
    ),
  ),
  useAddressList: text(
    t(
      '是否使用地址列表发送（true/false，默认 false）：true 时 to 为最多 5 个地址列表的别称地址，每个成员单独发送并替换其变量，cc、bcc、xsmtpapi 失效；立即返回 40821 与 maillistTaskId（每个列表一个任务，进度见 mail/taskinfo）。仅付费账号的批量类型 API_USER 可用',
      'Send to address lists (true/false, default false): with true, to holds the aliases of at most 5 address lists, each member gets their own mail with their variables, and cc, bcc and xsmtpapi are ignored; answered at once with 40821 and maillistTaskId (one task per list; progress through mail/taskinfo). Batch API_USERs of paid accounts only',
    ),
    {
      codes: [
        'SEND_ADDRESS_LIST_BATCH_ONLY',
        'ADDRESS_LIST_PAID_ONLY',
        'SEND_ADDRESS_LIST_NOT_FOUND',
        'SEND_ADDRESS_LIST_TOO_MANY',
      ],
    },
  ),
};

const XSMTPAPI_CODES = [
  'SEND_XSMTPAPI_INVALID',
  'SEND_XSMTPAPI_PARSE',
  'SEND_XSMTPAPI_NO_VALUE',
  'SEND_XSMTPAPI_TO_EMPTY',
  'SEND_XSMTPAPI_TO_TOO_MANY',
] as const;

const SEND_FIELDS = {
  ...SENDER,
  to: text(
    t(
      `收件人地址，多个用 ; 分隔，最多 ${SEND_RECIPIENTS_MAX} 个，所有收件人互相可见；xsmtpapi 含 to 时忽略`,
      `Recipients, \`;\`-separated, at most ${SEND_RECIPIENTS_MAX}, all visible to each other; ignored when xsmtpapi has a to`,
    ),
    {
      required: 'SEND_TO_REQUIRED',
      codes: ['SEND_TO_INVALID', 'SEND_TO_TOO_MANY'],
    },
  ),
  cc: text(
    t(
      `抄送地址，多个用 ; 分隔，最多 ${SEND_RECIPIENTS_MAX} 个`,
      `Cc addresses, \`;\`-separated, at most ${SEND_RECIPIENTS_MAX}`,
    ),
    {
      codes: ['SEND_CC_INVALID', 'SEND_CC_TOO_MANY'],
    },
  ),
  bcc: text(
    t(
      `密送地址，多个用 ; 分隔，最多 ${SEND_RECIPIENTS_MAX} 个`,
      `Bcc addresses, \`;\`-separated, at most ${SEND_RECIPIENTS_MAX}`,
    ),
    {
      codes: ['SEND_BCC_INVALID', 'SEND_BCC_TOO_MANY'],
    },
  ),
  subject: text(
    t(
      `邮件主题，最多 ${SEND_SUBJECT_MAX} 个字符，可含变量`,
      `Subject, at most ${SEND_SUBJECT_MAX} characters, may hold variables`,
    ),
    {
      required: 'SEND_SUBJECT_REQUIRED',
      codes: ['SEND_SUBJECT_INVALID'],
    },
  ),
  html: text(t('HTML 正文；html 与 plain 至少一个', 'HTML body; html or plain is required'), {
    codes: ['SEND_CONTENT_REQUIRED'],
  }),
  plain: text(t('纯文本正文', 'Plain-text body')),
  contentSummary: text(
    t(
      `摘要（预览文字），仅与 html 一起，最多 ${SEND_CONTENT_SUMMARY_MAX_BYTES} 字节`,
      `Summary (preview text), with html only, at most ${SEND_CONTENT_SUMMARY_MAX_BYTES} bytes`,
    ),
    {
      codes: ['SEND_CONTENT_SUMMARY_TOO_LONG'],
    },
  ),
  xsmtpapi: text(
    t(
      `X-SMTPAPI，JSON 字符串：to（最多 ${SEND_RECIPIENTS_MAX} 个，每人单独一封）、sub、section、filters、settings`,
      `X-SMTPAPI as a JSON string: to (at most ${SEND_RECIPIENTS_MAX}, each gets a mail of their own), sub, section, filters, settings`,
    ),
    {
      codes: [...XSMTPAPI_CODES],
    },
  ),
};

const ATTACHMENTS = {
  name: 'attachments',
  description: t(
    `附件（multipart/form-data 文件），合计最多 ${SEND_ATTACHMENTS_MAX_BYTES} 字节`,
    `Attachments (multipart/form-data files), at most ${SEND_ATTACHMENTS_MAX_BYTES} bytes in all`,
  ),
};

const EMAIL_ID_LIST = doc(
  z.array(z.string()),
  t(
    '每个收件人的 emailId（respEmailId=false 时为空）',
    'Each recipient’s emailId (empty when respEmailId=false)',
  ),
);

const SEND_ERRORS = [
  'SEND_ATTACHMENTS_TOO_LARGE',
  'SEND_QUOTA_EXCEEDED',
  'ACCOUNT_SUSPENDED',
  'SEND_FAILED',
] as const;

/** A send's emailIds; a list send's task ids instead (statusCode 40821, one task per list). */
const SEND_INFO = z.object({
  emailIdList: EMAIL_ID_LIST.optional(),
  maillistTaskId: doc(
    z.array(z.number()).optional(),
    t(
      'useAddressList=true 时（statusCode 40821）：每个地址列表一个任务的 ID',
      'With useAddressList=true (statusCode 40821): one task id per address list',
    ),
  ),
});

export const MAIL_SEND: ActionDocs = {
  summary: t('普通发送', 'Send a mail'),
  description: t(
    '向 to/cc/bcc 广播，或按 xsmtpapi.to 每人单独一封（变量替换）。',
    'Broadcast to to/cc/bcc, or one mail per xsmtpapi.to recipient (with variables).',
  ),
  params: params(SEND_FIELDS),
  files: ATTACHMENTS,
  info: SEND_INFO,
  errors: [...SEND_ERRORS],
};

export const MAIL_SENDTEMPLATE: ActionDocs = {
  summary: t('模板发送', 'Send a template'),
  description: t(
    '使用已审核通过的模板；收件人只来自 xsmtpapi.to，不支持 cc/bcc。',
    'Sends an approved template; recipients come from xsmtpapi.to only, no cc/bcc.',
  ),
  params: params({
    ...SENDER,
    templateInvokeName: text(t('模板调用名称', 'The template’s invoke name'), {
      required: 'SEND_TEMPLATE_NOT_FOUND',
      codes: ['SEND_TEMPLATE_NOT_PASSED'],
    }),
    subject: text(t('邮件主题，为空时使用模板主题', 'Subject; the template’s when empty'), {
      codes: ['SEND_TEMPLATE_SUBJECT_EMPTY', 'SEND_SUBJECT_INVALID'],
    }),
    xsmtpapi: text(
      t(
        `X-SMTPAPI，JSON 字符串，必须含 to（最多 ${SEND_RECIPIENTS_MAX} 个）`,
        `X-SMTPAPI as a JSON string; its to is required (at most ${SEND_RECIPIENTS_MAX})`,
      ),
      {
        required: 'SEND_XSMTPAPI_EMPTY',
        codes: ['SEND_XSMTPAPI_TO_REQUIRED', ...XSMTPAPI_CODES],
      },
    ),
    cc: text(t('不支持：模板发送不能抄送', 'Not allowed: a template send has no cc'), {
      codes: ['SEND_TEMPLATE_NO_CC'],
    }),
    bcc: text(t('不支持：模板发送不能密送', 'Not allowed: a template send has no bcc'), {
      codes: ['SEND_TEMPLATE_NO_CC'],
    }),
    to: text(
      t(
        '仅 useAddressList=true 时：地址列表的别称地址，多个用 ; 分隔，最多 5 个',
        'Only with useAddressList=true: the aliases of address lists, `;`-separated, at most 5',
      ),
      { codes: ['SEND_ADDRESS_LIST_NOT_FOUND', 'SEND_ADDRESS_LIST_TOO_MANY'] },
    ),
  }),
  files: ATTACHMENTS,
  info: SEND_INFO,
  errors: [...SEND_ERRORS],
};

const CALENDAR_CODES = ['SEND_CALENDAR_FIELD_REQUIRED', 'SEND_CALENDAR_FIELD_INVALID'] as const;

export const MAIL_SENDCALENDAR: ActionDocs = {
  summary: t('会议日历发送', 'Send a calendar invitation'),
  description: t(
    '普通发送的参数加上会议信息；返回会议 uid，用于更新或取消。',
    'The parameters of mail/send plus the meeting; answers the meeting’s uid, for updating or cancelling it.',
  ),
  params: params({
    ...SEND_FIELDS,
    startTime: text(t('开始时间，yyyy-MM-dd HH:mm:ss', 'Start, yyyy-MM-dd HH:mm:ss'), {
      required: 'SEND_CALENDAR_FIELD_REQUIRED',
      codes: ['SEND_CALENDAR_TIME_INVALID'],
    }),
    endTime: text(
      t('结束时间，yyyy-MM-dd HH:mm:ss，晚于开始时间', 'End, yyyy-MM-dd HH:mm:ss, after the start'),
      {
        required: 'SEND_CALENDAR_FIELD_REQUIRED',
        codes: ['SEND_CALENDAR_TIME_INVALID', 'SEND_CALENDAR_TIME_ORDER'],
      },
    ),
    title: text(t('会议标题', 'Meeting title'), {
      required: 'SEND_CALENDAR_FIELD_REQUIRED',
      codes: [...CALENDAR_CODES],
    }),
    location: text(t('会议地点', 'Meeting location'), {
      required: 'SEND_CALENDAR_FIELD_REQUIRED',
      codes: [...CALENDAR_CODES],
    }),
    description: text(t('会议描述', 'Meeting description'), { codes: ['SEND_CALENDAR_FIELD_INVALID'] }),
    organizerName: text(t('组织者名称', 'Organizer name'), {
      required: 'SEND_CALENDAR_FIELD_REQUIRED',
      codes: [...CALENDAR_CODES],
    }),
    organizerEmail: text(t('组织者邮箱', 'Organizer address'), {
      required: 'SEND_CALENDAR_FIELD_REQUIRED',
      codes: ['SEND_CALENDAR_ADDRESS_INVALID'],
    }),
    participatorNames: text(t('参与者名称，多个用 ; 分隔', 'Attendee names, `;`-separated')),
    participatorEmails: text(
      t(
        '参与者邮箱，多个用 ; 分隔；为空时取收件人',
        'Attendee addresses, `;`-separated; the recipients when empty',
      ),
      {
        codes: ['SEND_CALENDAR_ADDRESS_INVALID', 'SEND_CALENDAR_FIELD_INVALID'],
      },
    ),
    uid: text(t('会议 uid；更新或取消时必填', 'The meeting’s uid; required to update or cancel'), {
      codes: ['SEND_CALENDAR_UID_REQUIRED', 'SEND_CALENDAR_UID_INVALID'],
    }),
    isCancel: text(t('是否取消会议：true 或 false', 'Cancel the meeting: true or false'), {
      codes: ['SEND_CALENDAR_FIELD_INVALID'],
    }),
    isUpdate: text(t('是否更新会议：true 或 false', 'Update the meeting: true or false'), {
      codes: ['SEND_CALENDAR_FIELD_INVALID'],
    }),
    valarmTime: text(t('提前提醒的分钟数', 'Reminder, minutes before the start'), {
      codes: ['SEND_CALENDAR_FIELD_INVALID'],
    }),
  }),
  files: ATTACHMENTS,
  info: z.object({
    emailIdList: EMAIL_ID_LIST,
    uid: doc(z.string(), t('会议 uid', 'The meeting’s uid')),
  }),
  errors: [...SEND_ERRORS],
};
