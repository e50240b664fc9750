import { AppError, SMS_MSG_TYPES } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { advanceCursor, lockCursor } from '../mail-events/mail-events.repo.ts';
import type { SmsSendService, SmsSendSources } from '../sms-send/sms-send.service.ts';
import type { SmsTemplatesService } from '../sms-templates/sms-templates.service.ts';
import { type CompiledTemplate, compileTemplate, matchTemplate, splitSignature } from './gateway-content.ts';
import * as receipts from './gateway-receipts.repo.ts';
import type { GatewayLogin } from './sms-gateway-users.service.ts';

/** One SUBMIT (or submit_sm) once its parts are joined: what the customer's system asked for. */
export interface GatewaySubmit {
  login: Pick<GatewayLogin, 'id' | 'accountId' | 'name'>;
  /** Numbers as the customer wrote them (with or without 86 / +86). */
  phones: string[];
  text: string;
  /** Src_Id / source_addr: where reports and replies say they come from. */
  srcId: string;
  wantsReport: boolean;
  /** Per number (same order), the Msg_Ids its parts were answered with. */
  msgIds: string[][];
}

/** Numbers of an accepted submit that were refused one by one (their reports say REJECTD). */
export interface GatewaySubmitResult {
  accepted: number;
  refused: { phone: string; code: string }[];
}

/** A report or reply owed to a connection, as the adapter writes it. */
export interface OwedReceipt {
  id: number;
  userId: number;
  kind: 'report' | 'mo';
  msgId: string;
  /** E.164. */
  phone: string;
  srcId: string;
  stat: string;
  content: string;
  submittedAt: number;
  doneAt: number;
}

const TEMPLATE_CACHE_MS = 5_000;
const KEEP_MS = 7 * 24 * 3600_000;
const SWEEP_AFTER_MS = 60_000;
/** Carrier words a report can pass on as its Stat (7 characters). */
const CARRIER_STAT = /^(DELIVRD|EXPIRED|DELETED|UNDELIV|UNKNOWN|REJECTD|[A-Z]{2}:\d{4})\b/;

/**
 * The gateway's core half (issue 17): a customer system's submit goes through the HTTP API's
 * send path (SmsSendService.send, source `gateway`) once its text passed the content rules of
 * gateway-content.ts, with one report row per Msg_Id written beside each SMS. When an SMS settles
 * (its deliver, delivererror or workererror event in the SMS event log) the relay, reading the log
 * after its own cursor, makes its reports owed; a reply to such an SMS becomes an owed reply to
 * the same customer. Owed rows wait (7 days at most) for a connection of their user to claim
 * them, and are marked once the customer answered them, so each goes out once.
 */
export class SmsGatewayService {
  private readonly database: Database;
  private readonly send: Pick<SmsSendService, 'send'>;
  private readonly sources: Pick<SmsSendSources, 'signName'>;
  private readonly templates: Pick<SmsTemplatesService, 'passedDomesticSms'>;
  private readonly now: () => number;
  private readonly compiled = new Map<number, { templates: Promise<CompiledTemplate[]>; until: number }>();
  private lastSweep = 0;

  constructor(deps: {
    database: Database;
    send: Pick<SmsSendService, 'send'>;
    sources: Pick<SmsSendSources, 'signName'>;
    templates: Pick<SmsTemplatesService, 'passedDomesticSms'>;
    now?: () => number;
  }) {
    this.database = deps.database;
    this.send = deps.send;
    this.sources = deps.sources;
    this.templates = deps.templates;
    this.now = deps.now ?? Date.now;
  }

  /**
   * Sends a submit's text to its numbers, or throws the AppError that refuses it whole: no
   * signature, a signature not passed, no matching template, and whatever the send path refuses
   * (account state, certification and filing, a bad number, anti-bombing).
   */
  async submit(request: GatewaySubmit): Promise<GatewaySubmitResult> {
    const { accountId } = request.login;
    const signed = splitSignature(request.text);
    if (!signed) throw new AppError('SMS_GATEWAY_SIGN_MISSING');
    const templates = await this.templatesOf(accountId);
    const template = matchTemplate(templates, signed.sign, signed.body);
    if (!template) {
      if (!templates.some((t) => t.signName === signed.sign))
        await this.sources.signName({ accountId }, { name: signed.sign }, 'domestic');
      throw new AppError('SMS_GATEWAY_TEMPLATE_UNMATCHED');
    }
    const phones = request.phones.map(readPhone);
    const result = await this.send.send({
      smsUser: { id: null, accountId, name: request.login.name, cType: 'normal' },
      msgType: SMS_MSG_TYPES.sms,
      recipients: phones.map((phone) => ({ phone, vars: {} })),
      gateway: {
        templateId: template.id,
        text: request.text.trim(),
        userId: request.login.id,
        srcId: request.srcId,
        wantsReport: request.wantsReport,
        msgIds: new Map(phones.map((phone, i) => [phone, request.msgIds[i] ?? []])),
      },
      source: 'gateway',
    });
    if (result.failed.length > 0 && request.wantsReport) {
      const index = new Map(phones.map((phone, i) => [phone, i]));
      await this.owe(
        request.login,
        result.failed.flatMap((f) => {
          const i = index.get(f.phone) ?? -1;
          return (request.msgIds[i] ?? []).map((msgId) => ({ msgId, phone: f.phone }));
        }),
        request.srcId,
        'REJECTD',
      );
    }
    return {
      accepted: result.successCount,
      refused: result.failed.map((f) => ({ phone: f.phone, code: f.code })),
    };
  }

  /** Reports owed at once, for parts answered before their message was refused (or left incomplete). */
  async owe(
    login: Pick<GatewayLogin, 'id' | 'accountId'>,
    parts: { msgId: string; phone: string }[],
    srcId: string,
    stat: string,
  ): Promise<void> {
    const now = this.now();
    await receipts.insertOwed(
      this.database.db,
      parts.map((p) => ({
        account_id: login.accountId,
        gateway_user_id: login.id,
        sms_message_id: null,
        kind: 'report',
        msg_id: p.msgId,
        phone: readPhone(p.phone),
        src_id: srcId,
        stat,
        content: null,
        submitted_at: now,
        done_at: now,
      })),
    );
  }

  /**
   * One step of the relay: the next `limit` SMS events after the cursor make the reports of
   * settled gateway SMS owed and turn replies to them into owed replies, in the transaction that
   * moves the cursor. Answers how many events were read and how many rows became owed.
   */
  async relay(limit = 2000): Promise<{ read: number; owed: number }> {
    const now = this.now();
    const step = await this.database.db.transaction().execute(async (trx) => {
      const lastId = await lockCursor(trx, this.database.dialect, receipts.GATEWAY_CURSOR, now);
      const events = await receipts.eventsAfter(trx, lastId, limit);
      if (events.length === 0) return { read: 0, owed: 0 };
      let owed = 0;
      const byStat = new Map<string, { ids: number[]; at: number }>();
      const replies: receipts.SettlingEvent[] = [];
      for (const event of events) {
        if (event.kind === 'reply') replies.push(event);
        if (event.kind !== 'deliver' && event.kind !== 'delivererror' && event.kind !== 'workererror')
          continue;
        const stat = statOf(event.kind, event.message);
        const group = byStat.get(stat) ?? { ids: [], at: 0 };
        group.ids.push(Number(event.sms_message_id));
        group.at = Math.max(group.at, Number(event.at));
        byStat.set(stat, group);
      }
      for (const [stat, group] of byStat) {
        for (let i = 0; i < group.ids.length; i += 500)
          owed += await receipts.settle(trx, group.ids.slice(i, i + 500), stat, group.at);
      }
      if (replies.length > 0) owed += await this.replies(trx, replies);
      await advanceCursor(trx, receipts.GATEWAY_CURSOR, Number(events[events.length - 1]?.id), now);
      return { read: events.length, owed };
    });
    if (now - this.lastSweep > SWEEP_AFTER_MS) {
      this.lastSweep = now;
      step.owed += await this.sweep(now);
    }
    return step;
  }

  /** Rows owed to these users that no connection holds, handed out now. */
  async claim(userIds: number[], limit: number, resendAfterMs: number): Promise<OwedReceipt[]> {
    const now = this.now();
    const rows = await receipts.claimOwed(this.database, userIds, limit, now, now - resendAfterMs);
    return rows.map((r) => ({
      id: Number(r.id),
      userId: Number(r.gateway_user_id),
      kind: r.kind,
      msgId: r.msg_id,
      phone: r.phone,
      srcId: r.src_id,
      stat: r.stat ?? 'UNKNOWN',
      content: r.content ?? '',
      submittedAt: Number(r.submitted_at),
      doneAt: Number(r.done_at ?? r.submitted_at),
    }));
  }

  acked(ids: number[]): Promise<void> {
    return receipts.markAcked(this.database, ids);
  }

  release(ids: number[]): Promise<void> {
    return receipts.release(this.database, ids);
  }

  private async replies(trx: Parameters<typeof receipts.sendersOf>[0], events: receipts.SettlingEvent[]) {
    const senders = await receipts.sendersOf(trx, [...new Set(events.map((e) => Number(e.sms_message_id)))]);
    const bySms = new Map<number, (typeof senders)[number]>();
    for (const sender of senders) bySms.set(Number(sender.sms_message_id), sender);
    const rows: receipts.NewOwed[] = [];
    for (const event of events) {
      const sender = bySms.get(Number(event.sms_message_id));
      if (!sender) continue;
      rows.push({
        account_id: Number(sender.account_id),
        gateway_user_id: Number(sender.gateway_user_id),
        sms_message_id: Number(event.sms_message_id),
        kind: 'mo',
        msg_id: '',
        phone: sender.phone,
        src_id: sender.src_id,
        stat: null,
        content: event.message ?? '',
        submitted_at: Number(event.at),
        done_at: Number(event.at),
      });
    }
    await receipts.insertOwed(trx, rows);
    return rows.length;
  }

  /** Settles reports the cursor passed by (see settledButWaiting) and forgets old rows. */
  private async sweep(now: number): Promise<number> {
    const late = await receipts.settledButWaiting(this.database, now - SWEEP_AFTER_MS, 1000);
    let owed = 0;
    for (const message of late) {
      const kind =
        message.status === 'delivered'
          ? 'deliver'
          : message.status === 'processing_failed'
            ? 'workererror'
            : 'delivererror';
      owed += await receipts.settle(
        this.database.db,
        [Number(message.sms_message_id)],
        statOf(kind, message.reason),
        Number(message.done_at ?? now),
      );
    }
    await receipts.purge(this.database, now - KEEP_MS);
    return owed;
  }

  private templatesOf(accountId: number): Promise<CompiledTemplate[]> {
    const now = this.now();
    const hit = this.compiled.get(accountId);
    if (hit && hit.until > now) return hit.templates;
    if (this.compiled.size > 10_000) this.compiled.clear();
    const templates = this.templates
      .passedDomesticSms({ accountId })
      .then((list) => list.map((t) => compileTemplate(t)));
    this.compiled.set(accountId, { templates, until: now + TEMPLATE_CACHE_MS });
    templates.catch(() => this.compiled.delete(accountId));
    return templates;
  }
}

/** The Stat a report carries: DELIVRD, the carrier's own word or code, REJECTD for Herald's refusals. */
export function statOf(kind: string, message: string | null): string {
  if (kind === 'deliver') return 'DELIVRD';
  if (kind === 'workererror') return 'REJECTD';
  const carrier = CARRIER_STAT.exec((message ?? '').trim())?.[1];
  if (carrier) return carrier;
  return message === 'no receipt' ? 'EXPIRED' : 'UNDELIV';
}

/** 8613800001111 and +8613800001111 as E.164; anything else as written (the send path judges it). */
function readPhone(phone: string): string {
  const digits = phone.trim();
  if (/^86\d{11}$/.test(digits)) return `+${digits}`;
  return digits;
}
