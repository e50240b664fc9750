import {
  AppError,
  SEND_ATTACHMENTS_MAX_BYTES,
  SEND_CONTENT_SUMMARY_MAX_BYTES,
  SEND_RECIPIENTS_MAX,
  SEND_REPLY_TO_MAX,
  SEND_REQUEST_ID_MAX,
  SEND_SUBJECT_MAX,
  splitAddressList,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { MessageSource, RecipientKind } from '../../db/message-schema.ts';
import { AccountStates } from '../accounts/account-states.ts';
import type { Caller, KeyCaller } from '../context.ts';
import type { BalanceGate } from '../ledger/balance-gate.ts';
import { calendarPart } from './calendar.ts';
import { GroupCommit } from './group-commit.ts';
import { KyselyMessageWriter } from './kysely-message-writer.ts';
import type { ListSendRequest } from './list-send.ts';
import { emailIdOf, MessageIds } from './message-id.ts';
import type { MessageWriter } from './message-writer.ts';
import { type ParsedMime, parseMime } from './mime.ts';
import { accountLimitAt, apiUserDailyLimit } from './quota.ts';
import { domainOf, parseAddressList, parseSender } from './recipients.ts';
import { SendRepo } from './send.repo.ts';
import type {
  AcceptResult,
  ListTaskProgress,
  PreparedMessage,
  PreparedRecipient,
  SendAttachment,
  SendFields,
} from './send.types.ts';
import { SqliteMessageWriter } from './sqlite-message-writer.ts';
import { parseXsmtpapi, storedXsmtpapi, varsAt, type Xsmtpapi } from './xsmtpapi.ts';

export interface SendOptions {
  source?: MessageSource;
  /** Console test send: at most this many recipients. */
  maxRecipients?: number;
}

/** One SMTP transaction: the envelope and the raw message as submitted. */
export interface SmtpSubmission {
  mailFrom: string;
  rcptTo: string[];
  mime: Buffer;
}

const SMTP_MAX_BYTES = 16_000_000;

/**
 * The accept path of every sending protocol: /apiv2 mail/send and mail/sendtemplate, SMTP
 * submission and the console's test send all end in `accept`, which checks SendCloud's rules,
 * builds one message with one record per recipient and hands it to the group commit. A caller
 * hears success only after the commit that holds its message (see group-commit.ts).
 */
export class SendService {
  private readonly repo: SendRepo;
  private readonly ids: MessageIds;
  private readonly commits: GroupCommit<PreparedMessage, AcceptResult>;

  private readonly writer: MessageWriter;
  private readonly states: AccountStates;
  private readonly funds: BalanceGate | undefined;

  /**
   * `sqliteFile`: the embedded database's file; batches are then written by a writer thread with
   * its own connection (sqlite-message-writer.ts). Without it (PostgreSQL, or an in-memory SQLite)
   * they are written through the shared connection (kysely-message-writer.ts).
   */
  constructor(
    database: Database,
    options: {
      hostname?: string;
      waitMs?: number;
      sqliteFile?: string;
      states?: AccountStates;
      /** The balance check of paid accounts (none in tests that build the service alone). */
      funds?: BalanceGate;
    } = {},
  ) {
    this.repo = new SendRepo(database);
    this.states = options.states ?? new AccountStates(database);
    this.funds = options.funds;
    this.ids = new MessageIds(options.hostname);
    const file =
      database.dialect === 'sqlite' && options.sqliteFile !== ':memory:' ? options.sqliteFile : undefined;
    const writer: MessageWriter = file ? new SqliteMessageWriter(file) : new KyselyMessageWriter(database);
    this.writer = writer;
    this.commits = new GroupCommit((items) => writer.write(items), {
      waitMs: options.waitMs ?? 0,
    });
  }

  get reads(): SendRepo {
    return this.repo;
  }

  /** `mail/send`: recipients from to/cc/bcc, or from xsmtpapi.to (then each gets their own mail). */
  async send(
    caller: KeyCaller,
    fields: SendFields,
    attachments: SendAttachment[] = [],
    options: SendOptions = {},
  ): Promise<AcceptResult> {
    const xsmtpapi = parseXsmtpapi(fields.xsmtpapi);
    const html = nonEmpty(fields.html);
    const plain = nonEmpty(fields.plain);
    if (html === null && plain === null) throw new AppError('SEND_CONTENT_REQUIRED');
    const subject = requireSubject(fields.subject);
    const recipients = xsmtpapi?.to ? individual(xsmtpapi) : broadcast(fields.to, fields.cc, fields.bcc);
    return this.accept(caller, fields, {
      subject,
      html,
      plain,
      xsmtpapi,
      recipients,
      attachments,
      templateId: null,
      source: options.source ?? 'api',
      maxRecipients: options.maxRecipients,
    });
  }

  /** `mail/sendtemplate`: a passed template's content; recipients only from xsmtpapi.to. */
  async sendTemplate(
    caller: KeyCaller,
    fields: SendFields,
    attachments: SendAttachment[] = [],
    options: SendOptions = {},
  ): Promise<AcceptResult> {
    if (!(fields.templateInvokeName ?? '').trim()) throw new AppError('SEND_TEMPLATE_NOT_FOUND');
    if (nonEmpty(fields.cc) !== null || nonEmpty(fields.bcc) !== null)
      throw new AppError('SEND_TEMPLATE_NO_CC');
    const template = await this.passedTemplate(caller.accountId, fields.templateInvokeName);
    const xsmtpapi = parseXsmtpapi(fields.xsmtpapi);
    if (!xsmtpapi) throw new AppError('SEND_XSMTPAPI_EMPTY');
    if (!xsmtpapi.to) throw new AppError('SEND_XSMTPAPI_TO_REQUIRED');
    return this.accept(caller, fields, {
      subject: templateSubject(fields.subject, template.subject),
      html: template.html,
      plain: template.plain,
      xsmtpapi,
      recipients: individual(xsmtpapi),
      attachments,
      templateId: template.id,
      source: options.source ?? 'api',
      maxRecipients: options.maxRecipients,
    });
  }

  /**
   * `mail/sendcalendar`: mail/send with a meeting invitation (calendar.ts) as one more part; the
   * invitation's uid is returned for a later update or cancellation.
   */
  async sendCalendar(
    caller: KeyCaller,
    fields: SendFields,
    attachments: SendAttachment[] = [],
  ): Promise<AcceptResult & { uid: string }> {
    const calendar = calendarPart(fields, Date.now());
    const result = await this.send(caller, fields, [...attachments, calendar.attachment]);
    return { ...result, uid: calendar.uid };
  }

  /** SMTP MAIL FROM: refuse a sender outside the account's usable domains before DATA. */
  async checkSender(caller: KeyCaller, address: string): Promise<void> {
    await this.states.requireSending(caller);
    await this.funds?.require(caller.accountId, 'email');
    const sender = parseSender(address, undefined);
    await this.requireUsableDomain(caller.accountId, sender.address);
  }

  /**
   * SMTP submission: the raw MIME is kept as the body to deliver (without Bcc and X-SMTPAPI).
   * Recipients are the envelope's RCPT TO, or X-SMTPAPI's `to` when it has one.
   */
  async submit(caller: KeyCaller, submission: SmtpSubmission): Promise<AcceptResult> {
    if (submission.mime.length > SMTP_MAX_BYTES) {
      throw new AppError('SEND_MESSAGE_TOO_LARGE', { max: SMTP_MAX_BYTES });
    }
    const parsed: ParsedMime = parseMime(submission.mime);
    const xsmtpapi = parsed.xsmtpapi;
    const headerFrom = parsed.from ?? submission.mailFrom;
    let recipients: RecipientDraft[];
    if (xsmtpapi?.to) recipients = individual(xsmtpapi);
    else {
      const to = new Set(parsed.to.map((a) => a.toLowerCase()));
      const cc = new Set(parsed.cc.map((a) => a.toLowerCase()));
      const envelope = parseAddressList(submission.rcptTo.join(';'), SEND_RECIPIENTS_MAX, {
        invalid: 'SEND_TO_INVALID',
        tooMany: 'SEND_TO_TOO_MANY',
      });
      recipients = envelope.map((address) => ({
        address,
        kind: to.has(address.toLowerCase()) ? 'to' : cc.has(address.toLowerCase()) ? 'cc' : 'bcc',
        vars: null,
      }));
    }
    return this.accept(
      caller,
      { from: headerFrom, fromName: parsed.fromName ?? undefined },
      {
        subject: parsed.subject ?? '',
        html: null,
        plain: null,
        mime: parsed.body,
        xsmtpapi,
        recipients,
        attachments: [],
        templateId: null,
        source: 'smtp',
        allowEmptySubject: true,
      },
    );
  }

  /** Waits for accepted messages still in the group commit (at shutdown). */
  drain(): Promise<void> {
    return this.commits.drain();
  }

  /** Drains, then stops the writer thread. */
  async close(): Promise<void> {
    await this.commits.drain();
    await this.writer.close();
  }

  /**
   * `mail/send` or `mail/sendtemplate` with useAddressList=true (list-send.ts): the call checked as
   * its send would be, but for its recipients (the lists' members, written later by the task;
   * cc, bcc and xsmtpapi are ignored, as SendCloud does), kept as the task's request.
   */
  async prepareListSend(
    caller: KeyCaller,
    fields: SendFields,
    attachments: SendAttachment[],
    kind: 'send' | 'template',
  ): Promise<ListSendRequest> {
    let content: Pick<ListSendRequest, 'subject' | 'html' | 'plain' | 'templateId'>;
    if (kind === 'template') {
      const template = await this.passedTemplate(caller.accountId, fields.templateInvokeName);
      content = {
        subject: templateSubject(fields.subject, template.subject),
        html: template.html,
        plain: template.plain,
        templateId: template.id,
      };
    } else {
      const html = nonEmpty(fields.html);
      const plain = nonEmpty(fields.plain);
      if (html === null && plain === null) throw new AppError('SEND_CONTENT_REQUIRED');
      content = { subject: requireSubject(fields.subject), html, plain, templateId: null };
    }
    const head = await this.checkHead(caller, fields, { ...content, recipients: null, attachments });
    return {
      apiUserId: caller.apiUser.id,
      emailType: caller.apiUser.emailType,
      cType: caller.apiUser.cType,
      fromAddress: head.sender.address,
      fromName: head.sender.name,
      replyTo: head.replyTo,
      contentSummary: head.contentSummary,
      labelId: head.labelId,
      headers: head.headers,
      useNotification: head.useNotification,
      ...content,
    };
  }

  /**
   * One chunk of a list task: its members as one individual message through the group commit,
   * with the task's progress in the same transaction (ListTaskProgress). The account must still
   * be allowed to send from the domain, and the day's quota still have room, as for any send.
   */
  async acceptListChunk(
    { accountId }: Caller,
    request: ListSendRequest,
    attachments: SendAttachment[],
    members: { address: string; vars: Record<string, string> }[],
    progress: ListTaskProgress,
  ): Promise<AcceptResult> {
    await this.states.requireSending({ accountId });
    await this.funds?.require(accountId, 'email');
    await this.requireUsableDomain(accountId, request.fromAddress);
    const settings = await this.repo.accountSettings(accountId);
    if (!settings) throw new AppError('API_AUTH_FAILED');
    const messageId = this.ids.next(Date.now());
    const attachmentBytes = attachments.reduce((sum, a) => sum + a.content.length, 0);
    return this.commit({
      accountId,
      apiUserId: request.apiUserId,
      source: 'api',
      emailType: request.emailType,
      messageId,
      fromAddress: request.fromAddress,
      fromName: request.fromName,
      replyTo: request.replyTo,
      subject: request.subject,
      contentSummary: request.contentSummary,
      labelId: request.labelId,
      templateId: request.templateId,
      headers: request.headers,
      xsmtpapi: null,
      useNotification: request.useNotification,
      individual: true,
      html: request.html,
      plain: request.plain,
      mime: null,
      attachments,
      recipients: members.map((member, index) => ({
        index,
        emailId: emailIdOf(messageId, index, member.address),
        recipient: member.address,
        domain: domainOf(member.address),
        kind: 'to',
        vars: JSON.stringify(member.vars),
      })),
      sizeBytes:
        Buffer.byteLength(request.html ?? '') + Buffer.byteLength(request.plain ?? '') + attachmentBytes,
      sendRequestId: null,
      accountLimit: accountLimitAt(settings, Date.now()),
      apiUserLimit: apiUserDailyLimit(request.cType),
      listTask: progress,
    });
  }

  private async passedTemplate(accountId: number, invokeName: string | undefined) {
    const name = (invokeName ?? '').trim();
    if (!name) throw new AppError('SEND_TEMPLATE_NOT_FOUND');
    const template = await this.repo.templateByInvokeName(accountId, name);
    if (!template) throw new AppError('SEND_TEMPLATE_NOT_FOUND');
    if (template.status !== 'passed') throw new AppError('SEND_TEMPLATE_NOT_PASSED');
    return template;
  }

  private async accept(caller: KeyCaller, fields: SendFields, draft: Draft): Promise<AcceptResult> {
    const head = await this.checkHead(caller, fields, draft);
    const { sender, settings } = head;
    const messageId = this.ids.next(Date.now());
    const recipients: PreparedRecipient[] = draft.recipients.map((r, index) => ({
      index,
      emailId: emailIdOf(messageId, index, r.address),
      recipient: r.address,
      domain: domainOf(r.address),
      kind: r.kind,
      vars: r.vars,
    }));
    const result = await this.commit({
      accountId: caller.accountId,
      apiUserId: caller.apiUser.id,
      source: draft.source,
      emailType: caller.apiUser.emailType,
      messageId,
      fromAddress: sender.address,
      fromName: sender.name,
      replyTo: head.replyTo,
      subject: draft.subject,
      contentSummary: head.contentSummary,
      labelId: head.labelId,
      templateId: draft.templateId,
      headers: head.headers,
      xsmtpapi: storedXsmtpapi(draft.xsmtpapi),
      useNotification: head.useNotification,
      individual: draft.xsmtpapi?.to !== undefined,
      html: draft.html,
      plain: draft.plain,
      mime: draft.mime ?? null,
      attachments: draft.attachments,
      recipients,
      sizeBytes:
        (draft.mime?.length ?? 0) +
        Buffer.byteLength(draft.html ?? '') +
        Buffer.byteLength(draft.plain ?? '') +
        head.attachmentBytes,
      sendRequestId: head.sendRequestId,
      accountLimit: accountLimitAt(settings, Date.now()),
      apiUserLimit: apiUserDailyLimit(caller.apiUser.cType),
    });
    return head.respEmailId ? result : { ...result, emailIdList: [] };
  }

  private async commit(prepared: PreparedMessage): Promise<AcceptResult> {
    try {
      return await this.commits.submit(prepared);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('SEND_FAILED');
    }
  }

  /**
   * The rules of a send but its content and recipients, in SendCloud's order; `recipients` null
   * for a list send (its members are checked as the task writes them).
   */
  private async checkHead(
    caller: KeyCaller,
    fields: SendFields,
    draft: Pick<Draft, 'subject' | 'allowEmptySubject' | 'maxRecipients' | 'attachments'> & {
      recipients: RecipientDraft[] | null;
    },
  ) {
    await this.states.requireSending(caller);
    await this.funds?.require(caller.accountId, 'email');
    const sender = parseSender(fields.from, fields.fromName);
    const replyTo = parseAddressList(fields.replyTo, SEND_REPLY_TO_MAX, {
      invalid: 'SEND_REPLY_TO_INVALID',
      tooMany: 'SEND_REPLY_TO_TOO_MANY',
    });
    const contentSummary = nonEmpty(fields.contentSummary);
    if (contentSummary !== null && Buffer.byteLength(contentSummary) > SEND_CONTENT_SUMMARY_MAX_BYTES) {
      throw new AppError('SEND_CONTENT_SUMMARY_TOO_LONG');
    }
    if (!draft.allowEmptySubject && !draft.subject) throw new AppError('SEND_SUBJECT_REQUIRED');
    const headers = parseHeaders(fields.headers);
    const respEmailId = parseBoolean(fields.respEmailId, true, 'SEND_RESP_EMAIL_ID_INVALID');
    const useNotification = (fields.useNotification ?? '').trim().toLowerCase() === 'true';
    const sendRequestId = nonEmpty(fields.sendRequestId);
    if (sendRequestId !== null && sendRequestId.length > SEND_REQUEST_ID_MAX) {
      throw new AppError('SEND_REQUEST_ID_INVALID');
    }
    if (draft.recipients?.length === 0) throw new AppError('SEND_TO_REQUIRED');
    if (
      draft.recipients &&
      draft.maxRecipients !== undefined &&
      draft.recipients.length > draft.maxRecipients
    ) {
      throw new AppError('SEND_TEST_TOO_MANY');
    }
    const attachmentBytes = draft.attachments.reduce((sum, a) => sum + a.content.length, 0);
    if (attachmentBytes > SEND_ATTACHMENTS_MAX_BYTES) throw new AppError('SEND_ATTACHMENTS_TOO_LARGE');

    await this.requireUsableDomain(caller.accountId, sender.address);
    const labelId = await this.resolveLabel(caller.accountId, fields.labelId, fields.labelName);
    const settings = await this.repo.accountSettings(caller.accountId);
    if (!settings) throw new AppError('API_AUTH_FAILED');
    return {
      sender,
      replyTo: replyTo.length > 0 ? replyTo.join(';') : null,
      contentSummary,
      headers,
      respEmailId,
      useNotification,
      sendRequestId,
      attachmentBytes,
      labelId,
      settings,
    };
  }

  private async requireUsableDomain(accountId: number, address: string): Promise<void> {
    const domain = domainOf(address);
    const usable = await this.repo.usableDomains(accountId);
    if (!usable.has(domain)) throw new AppError('SEND_FROM_DOMAIN_UNUSABLE', { domain });
  }

  private async resolveLabel(
    accountId: number,
    labelId: string | undefined,
    labelName: string | undefined,
  ): Promise<number | null> {
    const id = nonEmpty(labelId);
    if (id !== null) {
      if (!/^\d{1,15}$/.test(id)) throw new AppError('SEND_LABEL_NOT_FOUND');
      if (!(await this.repo.labelExists(accountId, Number(id)))) throw new AppError('SEND_LABEL_NOT_FOUND');
      return Number(id);
    }
    const name = nonEmpty(labelName);
    if (name === null) return null;
    if (name.length > 255) throw new AppError('SEND_LABEL_INVALID');
    return this.repo.labelIdByName(accountId, name);
  }
}

interface RecipientDraft {
  address: string;
  kind: RecipientKind;
  vars: string | null;
}

interface Draft {
  subject: string;
  html: string | null;
  plain: string | null;
  mime?: Buffer;
  xsmtpapi: Xsmtpapi | undefined;
  recipients: RecipientDraft[];
  attachments: SendAttachment[];
  templateId: number | null;
  source: MessageSource;
  maxRecipients?: number;
  allowEmptySubject?: boolean;
}

function nonEmpty(value: string | undefined): string | null {
  return value !== undefined && value.trim() !== '' ? value : null;
}

function requireSubject(value: string | undefined): string {
  const subject = (value ?? '').trim();
  if (!subject) throw new AppError('SEND_SUBJECT_REQUIRED');
  if (subject.length > SEND_SUBJECT_MAX) throw new AppError('SEND_SUBJECT_INVALID');
  return subject;
}

/** A template send's subject: the call's, else the template's; one of them is required. */
function templateSubject(given: string | undefined, ofTemplate: string): string {
  const subject = (given ?? '').trim() || ofTemplate.trim();
  if (!subject) throw new AppError('SEND_TEMPLATE_SUBJECT_EMPTY');
  if (subject.length > SEND_SUBJECT_MAX) throw new AppError('SEND_SUBJECT_INVALID');
  return subject;
}

function individual(x: Xsmtpapi): RecipientDraft[] {
  return (x.to ?? []).map((address, i) => {
    const vars = varsAt(x, i);
    return { address, kind: 'to', vars: vars ? JSON.stringify(vars) : null };
  });
}

function broadcast(
  to: string | undefined,
  cc: string | undefined,
  bcc: string | undefined,
): RecipientDraft[] {
  const list = (value: string | undefined, kind: RecipientKind): RecipientDraft[] => {
    const codes =
      kind === 'to'
        ? ({ invalid: 'SEND_TO_INVALID', tooMany: 'SEND_TO_TOO_MANY' } as const)
        : kind === 'cc'
          ? ({ invalid: 'SEND_CC_INVALID', tooMany: 'SEND_CC_TOO_MANY' } as const)
          : ({ invalid: 'SEND_BCC_INVALID', tooMany: 'SEND_BCC_TOO_MANY' } as const);
    return parseAddressList(value, SEND_RECIPIENTS_MAX, codes).map((address) => ({
      address,
      kind,
      vars: null,
    }));
  };
  if (splitAddressList(to).length === 0) throw new AppError('SEND_TO_REQUIRED');
  return [...list(to, 'to'), ...list(cc, 'cc'), ...list(bcc, 'bcc')];
}

const HEADER_NAME = /^[!-9;-~]+$/;

/** `headers`: a JSON object of header names to string values; SC-Custom-* are kept for webhooks. */
function parseHeaders(value: string | undefined): string | null {
  const text = nonEmpty(value);
  if (text === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError('SEND_HEADERS_INVALID');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new AppError('SEND_HEADERS_INVALID');
  const headers: Record<string, string> = {};
  for (const [name, raw] of Object.entries(parsed)) {
    if (!HEADER_NAME.test(name) || (typeof raw !== 'string' && typeof raw !== 'number')) {
      throw new AppError('SEND_HEADERS_INVALID');
    }
    const headerValue = String(raw);
    if (/[\r\n]/.test(headerValue)) throw new AppError('SEND_HEADERS_INVALID');
    headers[name] = headerValue;
  }
  return Object.keys(headers).length > 0 ? JSON.stringify(headers) : null;
}

function parseBoolean(
  value: string | undefined,
  fallback: boolean,
  code: 'SEND_RESP_EMAIL_ID_INVALID',
): boolean {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '') return fallback;
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new AppError(code);
}
