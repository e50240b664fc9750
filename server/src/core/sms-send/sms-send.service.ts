import { randomBytes } from 'node:crypto';
import {
  AppError,
  checkSmsVariables,
  countSms,
  type MmsPage,
  type ParsedPhone,
  parseMobile,
  renderSmsTemplate,
  SMS_MSG_TYPES,
  signedSmsText,
  statDay,
  statDayStart,
  VOICE_CODE_PATTERN,
  VOICE_CODE_VARIABLE,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { AccountStates } from '../accounts/account-states.ts';
import type { Caller } from '../context.ts';
import type { BalanceGate } from '../ledger/balance-gate.ts';
import type { SmsLinker, SmsLinksService } from '../sms-links/sms-links.service.ts';
import type { SmsProtectionService } from '../sms-protection/sms-protection.service.ts';
import type { SmsUserRef } from '../sms-users/sms-users.service.ts';
import * as repo from './sms-send.repo.ts';

/** A template as sending needs it: passed review, with its signature's name. */
export interface SendableTemplate {
  id: number;
  kind: 'sms' | 'voice' | 'mms';
  region: 'domestic' | 'international';
  content: string;
  signName: string | null;
  /** Watched by the anti-bombing template guard: verification-code SMS and voice templates. */
  guarded: boolean;
  /** Its links become short links per recipient when the account tracks SMS links. */
  trackLinks: boolean;
  /** An MMS's pages (`content` is then its title); null for SMS and voice. */
  pages?: MmsPage[] | null;
}

/** Where sending finds what it needs from the rest of the core (wired in compose.ts). */
export interface SmsSendSources {
  /** The passed template, or throws SMS_TEMPLATE_NOT_FOUND / SMS_TEMPLATE_NOT_PASSED. */
  template(caller: Caller, templateId: number): Promise<SendableTemplate>;
  /** The name of a passed signature given by id or name, or throws SMS_SIGN_UNUSABLE. */
  signName(
    caller: Caller,
    sign: { id?: number; name?: string },
    region: 'domestic' | 'international',
  ): Promise<string>;
  /** Throws SMS_NOT_ALLOWED when the account may not send this kind (certification, filing). */
  requireAllowed(caller: Caller, msgType: number): Promise<void>;
  /** Throws SMS_LABEL_NOT_FOUND unless the id names one of the account's SMS labels. */
  requireLabel(caller: Caller, labelId: number): Promise<void>;
  /** Called after a template was used (a passed marketing template unused for a month reverts). */
  templateUsed(caller: Caller, templateId: number, at: number): Promise<void>;
}

export interface SmsRecipient {
  phone: string;
  vars: Record<string, string>;
}

/** The sender of a gateway submit (CMPP/SMPP): its account, and no SMS_USER. */
export interface GatewaySenderRef {
  id: null;
  accountId: number;
  name: string;
  cType: 'normal';
}

/**
 * A submit from a customer's system through Herald's gateway: its text exactly as it came
 * (signature included, already checked), the passed template it matched, and what its reports
 * need: the gateway user, the Msg_Ids each number's parts were answered with, the Src_Id.
 */
export interface GatewaySend {
  templateId: number;
  text: string;
  userId: number;
  srcId: string;
  wantsReport: boolean;
  /** By recipient phone as given. */
  msgIds: Map<string, string[]>;
}

export interface SmsSendRequest {
  smsUser: SmsUserRef | GatewaySenderRef;
  msgType: number;
  recipients: SmsRecipient[];
  /** The template's id; absent for a verification code without one (sendCode, sendVoice). */
  templateId?: number;
  /** The text and signature of a send without a template. */
  text?: { content: string; signName: string | null };
  labelId?: number;
  tag?: string;
  sendRequestId?: string;
  /** A gateway submit; `templateId` and `text` are then unused. */
  gateway?: GatewaySend;
  source: 'api' | 'console' | 'gateway';
}

/** One chunk of an SMS task's numbers, and the task's progress up to it (see sendTaskChunk). */
export interface SmsTaskChunk {
  accountId: number;
  taskId: number;
  templateId: number;
  /** The task's own signature, in place of the template's; null for the template's. */
  signName: string | null;
  labelId: number | null;
  recipients: SmsRecipient[];
  /** Where the task stands once this chunk is written: its cursor, lease and totals before the chunk. */
  progress: Omit<repo.TaskProgress, 'skipReasons'> & { skipReasons: Record<string, number> };
}

export interface SmsTaskChunkResult {
  /** False when the task's lease was lost: nothing of the chunk was written. */
  written: boolean;
  queued: number;
  skipped: number;
  skipReasons: Record<string, number>;
}

/** A number refused on its own: its error code and params, for the answer in the caller's language. */
export interface SmsSendFailure {
  phone: string;
  vars: Record<string, string>;
  code: string;
  params: Record<string, string | number>;
}

export interface SmsSendResult {
  successCount: number;
  smsIds: string[];
  /** Numbers refused one by one (a bad number among good ones); the call answers 311 then. */
  failed: SmsSendFailure[];
}

/** Every number of a call refused (SendCloud 312); the refusals ride along for the answer's items. */
export class SmsAllRefusedError extends AppError {
  readonly failed: SmsSendFailure[];

  constructor(failed: SmsSendFailure[]) {
    super('SMS_PHONE_ALL_REFUSED', { count: failed.length });
    this.failed = failed;
  }
}

export const SMS_MAX_PHONES = 2000;
export const SMS_TEST_LIMITS = { domestic: 10, international: 10, perPhonePerDay: 3 } as const;
const REQUEST_WINDOW_MS = 3600_000;

/**
 * Accepting SMS (reference §11): the numbers read and checked per country, the template's
 * placeholders filled per number, the signature put in front, and one `sms_messages` row per
 * number committed with its `request` event before the caller hears the smsIds. A sendRequestId
 * seen within the hour answers what it answered then and sends nothing. Each row records what the
 * Money issue will charge by: its parts as the carrier counts them, its country and price class.
 */
export class SmsSendService {
  private readonly database: Database;
  private readonly sources: SmsSendSources;
  private readonly links: Pick<SmsLinksService, 'linker'> | undefined;
  private readonly states: AccountStates;
  private readonly funds: BalanceGate | undefined;
  private readonly protection: SmsProtectionService;
  private readonly onAccepted: () => void;
  private readonly now: () => number;
  private readonly writer: repo.GroupWriter;

  constructor(deps: {
    database: Database;
    sources: SmsSendSources;
    states: AccountStates;
    /** The balance check of paid accounts (SMS 499). */
    funds?: BalanceGate;
    protection: SmsProtectionService;
    links?: Pick<SmsLinksService, 'linker'>;
    onAccepted?: () => void;
    now?: () => number;
  }) {
    this.links = deps.links;
    this.database = deps.database;
    this.sources = deps.sources;
    this.states = deps.states;
    this.funds = deps.funds;
    this.protection = deps.protection;
    this.onAccepted = deps.onAccepted ?? (() => {});
    this.now = deps.now ?? Date.now;
    this.writer = new repo.GroupWriter(deps.database, this.now);
  }

  async send(request: SmsSendRequest): Promise<SmsSendResult> {
    const { smsUser } = request;
    const accountId = smsUser.accountId;
    if (!Object.values(SMS_MSG_TYPES).includes(request.msgType as 0))
      throw new AppError('SMS_MSG_TYPE_INVALID');
    if (request.sendRequestId && smsUser.id !== null) {
      const earlier = await repo.findRequest(
        this.database,
        smsUser.id,
        request.sendRequestId,
        this.now() - REQUEST_WINDOW_MS,
      );
      if (earlier) return JSON.parse(earlier) as SmsSendResult;
    }
    await this.states.requireSending({ accountId });
    await this.funds?.require(accountId, 'sms');
    await this.sources.requireAllowed({ accountId }, request.msgType);
    if (request.labelId !== undefined) await this.sources.requireLabel({ accountId }, request.labelId);

    const international = request.msgType === SMS_MSG_TYPES.international;
    const { content, signName, templateId, guarded, trackLinks, pages } = await this.content(
      request,
      international,
    );
    const linker = trackLinks && this.links ? await this.links.linker({ accountId }) : null;
    const phones = this.readPhones(request.recipients, international);
    if (smsUser.cType === 'test') await this.checkTestLimits(accountId, phones.accepted, international);

    const now = this.now();
    const { messages, failed: refusedHere } = await this.compose(request, phones.accepted, {
      content,
      signName,
      templateId,
      linker,
      international,
      now,
      pages,
    });
    const failed = [...phones.failed, ...refusedHere];
    if (messages.length === 0) {
      // One number refused answers its own reason (412, 481, 496…), as SendCloud's example does;
      // several all refused are 312 with each number's reason.
      const first = failed[0];
      if (failed.length === 1 && first) throw new AppError(first.code as 'SMS_PHONE_INVALID', first.params);
      throw new SmsAllRefusedError(failed);
    }
    const result: SmsSendResult = {
      successCount: messages.length,
      smsIds: messages.map((m) => m.smsId),
      failed,
    };
    const requestRow =
      request.sendRequestId && smsUser.id !== null
        ? { smsUserId: smsUser.id, requestId: request.sendRequestId, answer: JSON.stringify(result) }
        : undefined;
    const guard =
      guarded && templateId !== undefined && (request.source === 'api' || request.source === 'gateway')
        ? await this.protection.templateGuard({ accountId })
        : null;
    const written = await this.writer.write({
      messages,
      request: requestRow,
      guard:
        guard && templateId !== undefined
          ? { accountId, templateId, msgType: request.msgType, ...guard }
          : undefined,
    });
    if (!written && request.sendRequestId && smsUser.id !== null) {
      // The same request id won a race a moment ago: answer what it answered.
      const earlier = await repo.findRequest(this.database, smsUser.id, request.sendRequestId, 0);
      if (earlier) return JSON.parse(earlier) as SmsSendResult;
    }
    if (templateId !== undefined) await this.sources.templateUsed({ accountId }, templateId, now);
    this.onAccepted();
    return result;
  }

  /**
   * Writes one chunk of an SMS task: the same checks and rendering as an API call's numbers,
   * in the task lane, with the task's cursor and totals in the same transaction. A number that
   * cannot be sent (the other region, its frequency limit, its variables) is counted as skipped
   * by its code rather than failing the chunk. Throws what the whole task must stop for: the
   * account may not send, the template is no longer passed or not an SMS one.
   */
  async sendTaskChunk(chunk: SmsTaskChunk): Promise<SmsTaskChunkResult> {
    const { accountId } = chunk;
    await this.states.requireSending({ accountId });
    await this.funds?.require(accountId, 'sms');
    const template = await this.sources.template({ accountId }, chunk.templateId);
    if (template.kind !== 'sms') throw new AppError('SMS_TASK_TEMPLATE_KIND');
    const international = template.region === 'international';
    const msgType = international ? SMS_MSG_TYPES.international : SMS_MSG_TYPES.sms;
    await this.sources.requireAllowed({ accountId }, msgType);
    const linker = template.trackLinks && this.links ? await this.links.linker({ accountId }) : null;

    const skipReasons = { ...chunk.progress.skipReasons };
    let skipped = 0;
    const skip = (code: string) => {
      skipReasons[code] = (skipReasons[code] ?? 0) + 1;
      skipped += 1;
    };
    const accepted: { recipient: SmsRecipient; phone: ParsedPhone }[] = [];
    for (const recipient of chunk.recipients) {
      const phone = parseMobile(recipient.phone, international ? undefined : 'CN');
      if (!phone || (phone.country === 'CN') === international) skip('SMS_PHONE_INVALID');
      else accepted.push({ recipient, phone });
    }
    const now = this.now();
    const { messages, failed } = await this.compose(
      {
        smsUser: { id: null, accountId, name: '', cType: 'normal' },
        msgType,
        labelId: chunk.labelId ?? undefined,
        source: 'task',
        taskId: chunk.taskId,
      },
      accepted,
      {
        content: template.content,
        signName: chunk.signName ?? template.signName,
        templateId: template.id,
        linker,
        international,
        now,
      },
    );
    for (const refusal of failed) skip(refusal.code);
    const queued = chunk.progress.queued + messages.length;
    const total = chunk.progress.skipped + skipped;
    const written = await this.writer.write({
      messages,
      request: undefined,
      task: { ...chunk.progress, queued, skipped: total, skipReasons: JSON.stringify(skipReasons) },
    });
    if (written && messages.length > 0) this.onAccepted();
    return { written, queued, skipped: total, skipReasons };
  }

  /**
   * Writes one chunk of a resend task: the failed messages of another task, their text exactly as
   * it was (variables, signature and short links in place), as new messages in the task lane.
   */
  async sendTaskCopies(chunk: {
    accountId: number;
    taskId: number;
    copies: Omit<repo.NewSms, 'smsId' | 'taskId' | 'tag' | 'source' | 'smsUserId'>[];
    progress: Omit<repo.TaskProgress, 'skipReasons'> & { skipReasons: Record<string, number> };
  }): Promise<SmsTaskChunkResult> {
    await this.states.requireSending({ accountId: chunk.accountId });
    await this.funds?.require(chunk.accountId, 'sms');
    const now = this.now();
    const messages = chunk.copies.map((copy) => ({
      ...copy,
      smsId: newSmsId(now, chunk.accountId),
      taskId: chunk.taskId,
      smsUserId: null,
      tag: null,
      source: 'task',
    }));
    const queued = chunk.progress.queued + messages.length;
    const { skipped, skipReasons } = chunk.progress;
    const written = await this.writer.write({
      messages,
      request: undefined,
      task: { ...chunk.progress, queued, skipReasons: JSON.stringify(skipReasons) },
    });
    if (written && messages.length > 0) this.onAccepted();
    return { written, queued, skipped, skipReasons };
  }

  /**
   * The messages of the accepted numbers: each number's frequency limits and variables checked,
   * the template filled, its links shortened, the signature put in front. Numbers refused here
   * come back in `failed`.
   */
  private async compose(
    request: Pick<SmsSendRequest, 'smsUser' | 'msgType' | 'labelId' | 'tag' | 'gateway'> & {
      source: SmsSendRequest['source'] | 'task';
      taskId?: number;
    },
    accepted: { recipient: SmsRecipient; phone: ParsedPhone }[],
    resolved: {
      content: string;
      signName: string | null;
      templateId: number | undefined;
      linker: SmsLinker | null;
      international: boolean;
      now: number;
      /** An MMS template's pages: their texts are filled per number like the title. */
      pages?: MmsPage[] | null;
    },
  ): Promise<{ messages: repo.NewSms[]; failed: SmsSendFailure[] }> {
    const { smsUser } = request;
    const accountId = smsUser.accountId;
    const { content, signName, templateId, linker, international, now, pages } = resolved;
    const pageTexts = pages?.map((page) => page.text ?? '') ?? [];
    const failed: SmsSendFailure[] = [];
    const messages: repo.NewSms[] = [];
    const refused = await this.protection.refusals(
      { accountId },
      accepted.map((a) => a.phone.e164),
    );
    for (const { recipient, phone } of accepted) {
      const refusal = refused.get(phone.e164);
      if (refusal) {
        failed.push({
          phone: recipient.phone,
          vars: recipient.vars,
          code: refusal.code,
          params: refusal.params,
        });
        continue;
      }
      const checked = checkSmsVariables({ content: [content, ...pageTexts].join('\n') }, recipient.vars);
      if (!checked.ok) {
        failed.push({
          phone: recipient.phone,
          vars: recipient.vars,
          code: checked.code,
          params: checked.params,
        });
        continue;
      }
      // The counter screen's own functions: what it shows is what is sent and billed.
      const region = international ? 'international' : 'domestic';
      let filled = renderSmsTemplate(content, recipient.vars);
      const shortened = linker ? await linker.shorten(filled) : undefined;
      if (shortened) filled = shortened.text;
      const text = signedSmsText(filled, signName, region);
      messages.push({
        smsId: newSmsId(now, accountId),
        taskId: request.taskId,
        links: shortened?.links ?? [],
        accountId,
        smsUserId: smsUser.id,
        templateId: templateId ?? null,
        labelId: request.labelId ?? null,
        msgType: request.msgType,
        phone: phone.e164,
        country: phone.country,
        priceClass: priceClass(request.msgType),
        parts:
          request.msgType === SMS_MSG_TYPES.sms || international
            ? countSms(filled, signName, region).parts
            : 1,
        content: text,
        tag: request.tag ?? null,
        source: request.source,
        mms: pages ? { pages, texts: fillMmsTexts(pages, recipient.vars) } : undefined,
        voiceCode: voiceCodeOf(request.msgType, recipient.vars),
        gateway: request.gateway && {
          userId: request.gateway.userId,
          srcId: request.gateway.srcId,
          wantsReport: request.gateway.wantsReport,
          msgIds: request.gateway.msgIds.get(recipient.phone) ?? [],
        },
      });
    }
    return { messages, failed };
  }

  private async content(request: SmsSendRequest, international: boolean) {
    const accountId = request.smsUser.accountId;
    if (request.text)
      return { ...request.text, templateId: undefined, guarded: false, trackLinks: false, pages: null };
    const templateId = request.gateway?.templateId ?? request.templateId;
    if (templateId === undefined) throw new AppError('SMS_TEMPLATE_ID_EMPTY');
    const template = await this.sources.template({ accountId }, templateId);
    const wanted = kindOf(request.msgType);
    if (
      template.kind !== wanted ||
      (template.kind === 'sms' && (template.region === 'international') !== international)
    ) {
      throw new AppError('SMS_TEMPLATE_TYPE_MISMATCH');
    }
    // A gateway's text goes as the customer sent it (signature where they put it, links as they
    // are): the template it matched gates it, counts for anti-bombing and is marked used.
    if (request.gateway)
      return {
        content: request.gateway.text,
        signName: null,
        templateId,
        guarded: template.guarded,
        trackLinks: false,
        pages: null,
      };
    return {
      content: template.content,
      signName: template.signName,
      templateId: template.id,
      guarded: template.guarded,
      trackLinks: template.trackLinks,
      pages: template.pages ?? null,
    };
  }

  private readPhones(recipients: SmsRecipient[], international: boolean) {
    if (recipients.length === 0) throw new AppError('SMS_PHONE_EMPTY');
    if (recipients.length > SMS_MAX_PHONES) throw new AppError('SMS_PHONE_TOO_MANY', { max: SMS_MAX_PHONES });
    const accepted: { recipient: SmsRecipient; phone: ParsedPhone }[] = [];
    const failed: SmsSendFailure[] = [];
    const seen = new Set<string>();
    for (const recipient of recipients) {
      if (recipient.phone.trim() === '') throw new AppError('SMS_PHONE_EMPTY');
      const phone = parseMobile(recipient.phone, international ? undefined : 'CN');
      const wrongRegion = phone && (international ? phone.country === 'CN' : phone.country !== 'CN');
      if (!phone || wrongRegion) {
        failed.push({
          phone: recipient.phone,
          vars: recipient.vars,
          code: 'SMS_PHONE_INVALID',
          params: { phone: recipient.phone.slice(0, 40) },
        });
        continue;
      }
      if (seen.has(phone.e164)) throw new AppError('SMS_PHONE_DUPLICATE', { phone: recipient.phone });
      seen.add(phone.e164);
      accepted.push({ recipient, phone });
    }
    return { accepted, failed };
  }

  private async checkTestLimits(
    accountId: number,
    accepted: { phone: ParsedPhone }[],
    international: boolean,
  ): Promise<void> {
    const dayStart = statDayStart(statDay(this.now()));
    const usage = await repo.testUsage(
      this.database,
      accountId,
      accepted.map((a) => a.phone.e164),
      dayStart,
    );
    const cls = international ? 'international' : 'domestic';
    const limit = SMS_TEST_LIMITS[cls];
    if ((usage.byClass.get(cls) ?? 0) + accepted.length > limit) {
      throw new AppError('SMS_TEST_LIMIT', { reason: `${cls} ${limit}` });
    }
    for (const { phone } of accepted) {
      if ((usage.byPhone.get(phone.e164) ?? 0) >= SMS_TEST_LIMITS.perPhonePerDay) {
        throw new AppError('SMS_TEST_LIMIT', {
          reason: `${phone.e164} ${SMS_TEST_LIMITS.perPhonePerDay}/day`,
        });
      }
    }
  }
}

/** Each page's text filled as the console's preview fills it (previewSmsTemplate); null where a page has none. */
function fillMmsTexts(pages: MmsPage[], vars: Record<string, string>): (string | null)[] {
  return pages.map((page) => (page.text === undefined ? null : renderSmsTemplate(page.text, vars)));
}

function kindOf(msgType: number): SendableTemplate['kind'] {
  if (msgType === SMS_MSG_TYPES.mms) return 'mms';
  if (msgType === SMS_MSG_TYPES.voice) return 'voice';
  return 'sms';
}

/** A voice message's code, which its call reads out: its `code` variable, when that is 4-6 digits. */
function voiceCodeOf(msgType: number, vars: Record<string, string>): string | undefined {
  const code = vars[VOICE_CODE_VARIABLE];
  return msgType === SMS_MSG_TYPES.voice && code && VOICE_CODE_PATTERN.test(code) ? code : undefined;
}

function priceClass(msgType: number): string {
  if (msgType === SMS_MSG_TYPES.mms) return 'mms';
  if (msgType === SMS_MSG_TYPES.voice) return 'voice';
  if (msgType === SMS_MSG_TYPES.international) return 'international';
  return 'domestic';
}

let sequence = 0;

/** An smsId: the accept time, the account and a random tail, unique without a round trip. */
function newSmsId(now: number, accountId: number): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${now}_${accountId}_${sequence}_${randomBytes(4).toString('hex')}`;
}
