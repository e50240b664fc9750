import fastifyMultipart from '@fastify/multipart';
import {
  API_CREDENTIALS,
  AppError,
  ERRORS,
  formatMessage,
  type Lang,
  SMS_MSG_TYPES,
  SMS_STATUS_NAMES,
  smsStatusText,
} from '@herald/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Core } from '../../compose.ts';
import {
  SmsAllRefusedError,
  type SmsRecipient,
  type SmsSendFailure,
  type SmsSendResult,
} from '../../core/sms-send/sms-send.service.ts';
import type { SmsUserRef } from '../../core/sms-users/sms-users.service.ts';
import { SENDCLOUD_MULTIPART } from '../apiv2/apiv2.plugin.ts';
import { dataRange, listParam, paging } from '../apiv2/apiv2-data-range.ts';
import { validateParams } from '../apiv2/apiv2-docs.ts';
import { apiv2Params } from '../apiv2/apiv2-params.ts';
import { sendCloudTime } from '../apiv2/domain.apiv2.ts';
import { type Envelope, failure, ok, sendCloudCode } from '../apiv2/envelope.ts';
import { toAppError } from '../errors.ts';
import type { RawAnswer } from '../plugins/api-client-errors.ts';
import {
  SMS_PROCESS_FAILED,
  SMS_SEND,
  SMS_SEND_CODE,
  SMS_SEND_DAY,
  SMS_SEND_FAILED,
  SMS_SEND_VOICE,
  SMS_SENDX,
  SMS_SIGN_GET,
  SMS_SIGN_LIST,
  SMS_SIGN_SAVE,
  SMS_SIGN_UPDATE,
  SMS_STATUS_QUERY,
  SMS_TEMPLATE_ADD,
  SMS_TEMPLATE_DELETE,
  SMS_TEMPLATE_GET,
  SMS_TEMPLATE_LIST,
  SMS_TEMPLATE_SUBMIT,
  SMS_TEMPLATE_UPDATE,
} from './smsapi.params.ts';
import type { SmsAction, SmsapiActionEntry, SmsCall } from './smsapi.types.ts';
import { SMS_CONTACT_ACTIONS } from './smsapi-contacts.ts';
import { SMS_LABEL_ACTIONS } from './smsapi-labels.ts';
import { SMS_TASK_ACTIONS } from './smsapi-tasks.ts';

/** How far a signed timestamp may be from the server's clock (reference §11). */
const TIMESTAMP_SKEW_MS = 60_000;
const SENDX_MAX = 200;

/**
 * The SendCloud-compatible SMS API at /smsapi (reference §11, §14). Every call is GET or POST
 * with form, query or multipart parameters, names its SMS_USER (`smsUser`) and proves it holds
 * the SMS_KEY with `signature` = md5(key & sorted k=v & key) over everything else it sends,
 * `timestamp` included when given (then at most 60 s from the server's clock). Every answer is
 * SendCloud's envelope with HTTP 200: its clients read `statusCode`.
 */
export async function registerSmsapi(app: FastifyInstance, core: Core): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, SENDCLOUD_MULTIPART);
    scope.setErrorHandler((error, request, reply) => answerFailure(request, reply, error));
    scope.route({
      method: ['GET', 'POST'],
      url: '/smsapi/timestamp/get',
      config: { access: API_CREDENTIALS },
      handler: async (request) => ok(request.lang, { timestamp: Date.now() }),
    });
    for (const { path, docs, action } of SMSAPI_ACTIONS) {
      scope.route({
        method: ['GET', 'POST'],
        url: `/smsapi/${path}`,
        config: { access: API_CREDENTIALS },
        handler: async (request) => {
          const { fields } = apiv2Params(request);
          validateParams(docs.params, fields);
          const smsUser = await authenticate(core, fields);
          return action({ smsUser, fields, request }, core);
        },
      });
    }
  });
}

/** The SMS_USER whose key signed the call (the parameters' shape is checked already). */
async function authenticate(core: Core, fields: Record<string, string>): Promise<SmsUserRef> {
  const name = fields.smsUser ?? '';
  const signature = fields.signature ?? '';
  if (fields.timestamp !== undefined && fields.timestamp !== '') {
    const at = Number(fields.timestamp);
    if (!Number.isFinite(at) || Math.abs(Date.now() - at) > TIMESTAMP_SKEW_MS) {
      throw new AppError('SMS_TIMESTAMP_INVALID');
    }
  }
  const smsUser = await core.smsUsers.verifySignature(name, fields, signature);
  if (smsUser) return smsUser;
  if (!(await core.smsUsers.exists(name))) throw new AppError('SMS_USER_UNKNOWN');
  throw new AppError('SMS_SIGNATURE_WRONG');
}

const ACTIONS = {
  send: async ({ smsUser, fields, request }: SmsCall, core: Core) => {
    const vars = readVars(fields.vars);
    const phones = listParam(fields.phone);
    return answerSend(
      request.lang,
      await core.smsSend.send({
        smsUser,
        msgType: readMsgType(fields.msgType),
        recipients: phones.map((phone) => ({ phone, vars })),
        templateId: readTemplateId(fields.templateId),
        labelId: optionalInt(fields.labelId),
        tag: fields.tag,
        sendRequestId: fields.sendRequestId || undefined,
        source: 'api',
      }),
    );
  },

  sendx: async ({ smsUser, fields, request }: SmsCall, core: Core) => {
    return answerSend(
      request.lang,
      await core.smsSend.send({
        smsUser,
        msgType: readMsgType(fields.msgType),
        recipients: readTos(fields.tos),
        templateId: readTemplateId(fields.templateId),
        labelId: optionalInt(fields.labelId),
        tag: fields.tag,
        sendRequestId: fields.sendRequestId || undefined,
        source: 'api',
      }),
    );
  },

  sendvoice: async ({ smsUser, fields, request }: SmsCall, core: Core) => {
    const code = readCode(fields.code);
    return answerSend(
      request.lang,
      await core.smsSend.send({
        smsUser,
        msgType: SMS_MSG_TYPES.voice,
        recipients: listParam(fields.phone).map((phone) => ({ phone, vars: { code } })),
        text: { content: voiceText(code), signName: null },
        labelId: optionalInt(fields.labelId),
        sendRequestId: fields.sendRequestId || undefined,
        source: 'api',
      }),
    );
  },

  sendcode: async ({ smsUser, fields, request }: SmsCall, core: Core) => {
    const code = readCode(fields.code);
    const msgType = readMsgType(fields.msgType);
    const international = msgType === SMS_MSG_TYPES.international;
    const signName = await core.smsSendSources.signName(
      { accountId: smsUser.accountId },
      { id: optionalInt(fields.signId), name: fields.signName || undefined },
      international ? 'international' : 'domestic',
    );
    return answerSend(
      request.lang,
      await core.smsSend.send({
        smsUser,
        msgType,
        recipients: listParam(fields.phone).map((phone) => ({ phone, vars: {} })),
        text: { content: codeText(code, international), signName },
        labelId: optionalInt(fields.labelId),
        sendRequestId: fields.sendRequestId || undefined,
        source: 'api',
      }),
    );
  },

  statusQuery: async ({ smsUser, fields, request }: SmsCall, core: Core) => {
    const { from, to } = readPeriod(fields);
    const { start, limit } = paging(fields);
    const msgType = fields.msgTypeStr ?? fields.msgType;
    const result = await core.smsMessages.query(
      { accountId: smsUser.accountId },
      {
        smsIds: listParam(fields.smsIds),
        phones: listParam(fields.phones),
        from,
        to,
        msgType: msgType ? readMsgType(msgType) : undefined,
        templateId: optionalInt(fields.templateId),
        start,
        limit,
      },
    );
    return ok(request.lang, {
      count: result.total,
      voList: result.items.map((m) => ({
        smsId: m.smsId,
        msgType: m.msgType,
        receiver: m.phone,
        requestTime: sendCloudTime(m.requestedAt),
        updateTime: sendCloudTime(m.updatedAt),
        sendLog: m.reason ?? '',
        smsUser: m.smsUser ?? '',
        status: SMS_STATUS_NAMES[m.status][request.lang],
        statusText: smsStatusText(m.statusCode, request.lang),
        statusCode: m.statusCode,
        templateId: m.templateId,
        templateName: m.templateName ?? '',
      })),
    });
  },
  sendDay: async ({ smsUser, fields, request }: SmsCall, core: Core) => {
    const { from, to } = readPeriod(fields);
    const days = await core.smsMessages.days({ accountId: smsUser.accountId }, from, to);
    return ok(request.lang, {
      dataList: days.map((d) => ({
        sendDate: d.day,
        requestNum: d.requested,
        sendNum: d.delivered,
        processFailedNum: d.processFailed,
        sendFailedNum: d.sendFailed,
        waitingNum: d.waiting,
        billingNum: d.billedParts,
        sendRatio: d.requested === 0 ? 0 : Math.round((d.delivered / d.requested) * 10_000) / 100,
      })),
    });
  },

  processFailed: async ({ smsUser, fields, request }: SmsCall, core: Core) => {
    const { from, to } = readPeriod(fields);
    const n = await core.smsMessages.failures({ accountId: smsUser.accountId }, from, to);
    const of = (code: number) => n.get(code) ?? 0;
    return ok(request.lang, {
      globalBlackListNum: of(410),
      userBlackListNum: of(420),
      unsubscribleNum: of(430),
      keyWordFilterNum: of(440),
      errorVarsNum: of(450),
      varsContentTooLongNum: of(460),
      frequencyNum: of(470),
      encodingExceptionNum: 0,
      sendTypeUnsupportedNum: 0,
      othersNum: of(490),
    });
  },

  sendFailed: async ({ smsUser, fields, request }: SmsCall, core: Core) => {
    const { from, to } = readPeriod(fields);
    const n = await core.smsMessages.failures({ accountId: smsUser.accountId }, from, to);
    const of = (code: number) => n.get(code) ?? 0;
    return ok(request.lang, {
      emptyPhoneNumberNum: of(500),
      outOfServiceNum: of(510),
      complaintsNum: of(520),
      busyNum: of(530),
      noAnswerNum: of(540),
      interceptNum: of(550),
      breakDownNum: of(560),
      notInServiceNum: of(570),
      shutDownNum: of(580),
      othersNum: of(590),
    });
  },
  signList: async ({ smsUser, fields, request }: SmsCall, core: Core) => {
    const { total, list } = await core.smsSigns.apiList(
      { accountId: smsUser.accountId },
      {
        signType: fields.signType === '1' ? 1 : fields.signType === '0' ? 0 : undefined,
        ...paging(fields),
      },
    );
    return ok(request.lang, { total, dataList: list });
  },

  signGet: async ({ smsUser, fields, request }: SmsCall, core: Core) =>
    ok(request.lang, {
      data: await core.smsSigns.apiGet({ accountId: smsUser.accountId }, Number(fields.id)),
    }),

  signSave: async ({ smsUser, fields, request }: SmsCall, core: Core) =>
    ok(request.lang, {
      data: await core.smsSigns.apiSave(
        { accountId: smsUser.accountId },
        {
          signName: fields.signName ?? '',
          signType: fields.signType === '1' ? 1 : 0,
        },
      ),
    }),

  signUpdate: async ({ smsUser, fields, request }: SmsCall, core: Core) =>
    ok(request.lang, {
      data: await core.smsSigns.apiUpdate(
        { accountId: smsUser.accountId },
        {
          id: Number(fields.id),
          signName: fields.signName ?? '',
          signType: fields.signType === '1' ? 1 : fields.signType === '0' ? 0 : undefined,
        },
      ),
    }),
  templateList: async ({ smsUser, fields, request }: SmsCall, core: Core) => {
    const { total, list } = await core.smsTemplatesApi.list(
      { accountId: smsUser.accountId },
      {
        isVerifyStr: fields.isVerifyStr || undefined,
        ...paging(fields),
      },
    );
    return ok(request.lang, { total, dataList: list });
  },

  templateGet: async ({ smsUser, fields, request }: SmsCall, core: Core) =>
    ok(request.lang, {
      data: await core.smsTemplatesApi.get({ accountId: smsUser.accountId }, Number(fields.templateIdStr)),
    }),

  templateAdd: async ({ smsUser, fields, request }: SmsCall, core: Core) =>
    ok(request.lang, {
      data: await core.smsTemplatesApi.add({ accountId: smsUser.accountId }, templateInput(fields)),
    }),

  templateUpdate: async ({ smsUser, fields, request }: SmsCall, core: Core) =>
    ok(request.lang, {
      data: await core.smsTemplatesApi.update(
        { accountId: smsUser.accountId },
        Number(fields.templateIdStr),
        templateInput(fields),
      ),
    }),

  templateSubmit: async ({ smsUser, fields, request }: SmsCall, core: Core) =>
    ok(request.lang, {
      data: await core.smsTemplatesApi.submit({ accountId: smsUser.accountId }, Number(fields.templateIdStr)),
    }),

  templateDelete: async ({ smsUser, fields, request }: SmsCall, core: Core) => {
    await core.smsTemplatesApi.remove({ accountId: smsUser.accountId }, Number(fields.templateIdStr));
    return ok(request.lang, {});
  },
} satisfies Record<string, SmsAction>;

function templateInput(fields: Record<string, string>) {
  return {
    templateName: fields.templateName || undefined,
    templateText: fields.templateText || undefined,
    signId: optionalInt(fields.signId),
    signName: fields.signName || undefined,
    smsTypeStr: fields.smsTypeStr || undefined,
    msgType: optionalInt(fields.msgType),
  };
}

/** Every authenticated /smsapi action, for the routes and the API documentation. */
export const SMSAPI_ACTIONS: readonly SmsapiActionEntry[] = [
  { path: 'send', docs: SMS_SEND, action: ACTIONS.send },
  { path: 'sendx', docs: SMS_SENDX, action: ACTIONS.sendx },
  { path: 'sendcode', docs: SMS_SEND_CODE, action: ACTIONS.sendcode },
  { path: 'sendvoice', docs: SMS_SEND_VOICE, action: ACTIONS.sendvoice },
  { path: 'status/query', docs: SMS_STATUS_QUERY, action: ACTIONS.statusQuery },
  { path: 'data/sendday', docs: SMS_SEND_DAY, action: ACTIONS.sendDay },
  { path: 'data/processfailed', docs: SMS_PROCESS_FAILED, action: ACTIONS.processFailed },
  { path: 'data/sendfailed', docs: SMS_SEND_FAILED, action: ACTIONS.sendFailed },
  { path: 'list', docs: SMS_TEMPLATE_LIST, action: ACTIONS.templateList },
  { path: 'get', docs: SMS_TEMPLATE_GET, action: ACTIONS.templateGet },
  { path: 'addsms', docs: SMS_TEMPLATE_ADD, action: ACTIONS.templateAdd },
  { path: 'updatesms', docs: SMS_TEMPLATE_UPDATE, action: ACTIONS.templateUpdate },
  { path: 'submitsms', docs: SMS_TEMPLATE_SUBMIT, action: ACTIONS.templateSubmit },
  { path: 'deletesms', docs: SMS_TEMPLATE_DELETE, action: ACTIONS.templateDelete },
  { path: 'sign/list', docs: SMS_SIGN_LIST, action: ACTIONS.signList },
  { path: 'sign/get', docs: SMS_SIGN_GET, action: ACTIONS.signGet },
  { path: 'sign/save', docs: SMS_SIGN_SAVE, action: ACTIONS.signSave },
  { path: 'sign/update', docs: SMS_SIGN_UPDATE, action: ACTIONS.signUpdate },
  ...SMS_LABEL_ACTIONS,
  ...SMS_CONTACT_ACTIONS,
  ...SMS_TASK_ACTIONS,
];

/** 200 when every number was taken, 311 when some were refused one by one (with their reasons). */
function answerSend(lang: Lang, result: SmsSendResult): Envelope {
  const info = { successCount: result.successCount, smsIds: result.smsIds };
  if (result.failed.length === 0) return ok(lang, info);
  return {
    ...ok(lang, {
      ...info,
      failedCount: result.failed.length,
      items: refusedItems(result.failed, lang),
    }),
    statusCode: 311,
    message: lang === 'zh-cn' ? '部分成功' : 'partial success',
  };
}

/** The numbers refused one by one, each with its reason in the caller's language. */
function refusedItems(failed: SmsSendFailure[], lang: Lang) {
  return failed.map((f) => ({
    phone: f.phone,
    vars: f.vars,
    message: formatMessage(f.code as 'SMS_PHONE_INVALID', lang, f.params),
  }));
}

function readMsgType(value: string | undefined): number {
  if (value === undefined || value === '') return SMS_MSG_TYPES.sms;
  const n = Number(value);
  if (!Number.isInteger(n) || !Object.values(SMS_MSG_TYPES).includes(n as 0))
    throw new AppError('SMS_MSG_TYPE_INVALID');
  return n;
}

function readTemplateId(value: string | undefined): number {
  if (value === undefined || value.trim() === '') throw new AppError('SMS_TEMPLATE_ID_EMPTY');
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new AppError('SMS_TEMPLATE_NOT_FOUND');
  return n;
}

function optionalInt(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** `vars` is a JSON object of text values; its keys may be written with or without the %s. */
function readVars(value: string | undefined): Record<string, string> {
  if (value === undefined || value.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new AppError('SMS_VARS_FORMAT');
  }
  return varsObject(parsed);
}

function varsObject(parsed: unknown): Record<string, string> {
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new AppError('SMS_VARS_FORMAT');
  const vars: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== 'string' && typeof value !== 'number') throw new AppError('SMS_VARS_FORMAT');
    vars[name.replace(/^%|%$/g, '')] = String(value);
  }
  return vars;
}

/** sendx's `tos`: a JSON array of {phone, vars}, at most 200. */
function readTos(value: string | undefined): SmsRecipient[] {
  if (value === undefined || value.trim() === '') throw new AppError('SMS_PHONE_EMPTY');
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new AppError('SMS_VARS_FORMAT');
  }
  if (!Array.isArray(parsed)) throw new AppError('SMS_VARS_FORMAT');
  if (parsed.length > SENDX_MAX) throw new AppError('SMS_PHONE_TOO_MANY', { max: SENDX_MAX });
  return parsed.map((entry) => {
    if (!entry || typeof entry !== 'object') throw new AppError('SMS_VARS_FORMAT');
    const { phone, vars } = entry as { phone?: unknown; vars?: unknown };
    return { phone: String(phone ?? ''), vars: vars === undefined ? {} : varsObject(vars) };
  });
}

function readCode(value: string | undefined): string {
  if (!value || !/^\d{4,6}$/.test(value)) throw new AppError('SMS_CODE_INVALID');
  return value;
}

function voiceText(code: string): string {
  return `您的验证码是 ${code.split('').join(' ')}`;
}

function codeText(code: string, international: boolean): string {
  return international ? `Your verification code is ${code}` : `您的验证码是${code}，请勿泄露给他人。`;
}

/** SendCloud's `days` or `startDate`/`endDate` (as /apiv2 reads them); today when the call names none. */
function readPeriod(fields: Record<string, string>): { from: number; to: number } {
  const range = dataRange(fields) ?? (dataRange({ days: '1' }) as { from: number; to: number });
  return { from: range.from, to: range.to + 1 };
}

/** Herald's codes a SendCloud SMS client must read as its own: an account that may not send is 601. */
const SMS_OVERRIDES: Record<string, number> = { ACCOUNT_SUSPENDED: 601, ACCOUNT_FROZEN: 601 };

/**
 * The return code of a refused /smsapi call (reference §11). The shared envelope's fallbacks are
 * the email API's: a refusal with no SMS number of its own and HTTP 403 (a cross-site browser
 * post, a paid-only feature) is SMS 601 "no permission" here, not 6001. Too many calls stay
 * 50000 "interface frequency limited": SendCloud's SMS table lists that code too (per smsUser,
 * per call, per minute), while 496/498 are about one phone number and say which.
 */
export function smsStatusCode(error: AppError): number {
  const override = SMS_OVERRIDES[error.code];
  if (override !== undefined) return override;
  const { status, sendCloud } = ERRORS[error.code] as { status: number; sendCloud?: number };
  if (sendCloud === undefined && status === 403) return 601;
  return sendCloudCode(error);
}

function smsFailure(error: AppError, lang: Lang): Envelope {
  return { ...failure(error, lang), statusCode: smsStatusCode(error) };
}

/** An /smsapi refusal written outside a route (a body that never arrived whole): the envelope. */
export function smsapiRefusal(_url: string, lang: Lang, error: AppError): RawAnswer {
  return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(smsFailure(error, lang)) };
}

function answerFailure(request: FastifyRequest, reply: FastifyReply, thrown: unknown) {
  const error = toAppError(thrown, request);
  if (error.status >= 500) request.log.error({ err: thrown }, 'smsapi call failed');
  else request.log.info({ code: error.code }, 'smsapi call rejected');
  const envelope = smsFailure(error, request.lang);
  if (error instanceof SmsAllRefusedError) {
    envelope.info = {
      successCount: 0,
      smsIds: [],
      failedCount: error.failed.length,
      items: refusedItems(error.failed, request.lang),
    };
  }
  return reply.status(200).send(envelope);
}
