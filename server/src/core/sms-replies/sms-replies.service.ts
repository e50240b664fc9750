import {
  AppError,
  epochDay,
  everyDay,
  isOptOutReply,
  parseMobile,
  SMS_OPT_OUT_WORDS,
  type SmsReplyDay,
  type SmsReplyView,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { accountOfExtension, type CarrierReply, type SmsReplies } from '../../sms/ports.ts';
import type { Caller } from '../context.ts';
import { insertEntry } from '../sms-interception/sms-interception.repo.ts';
import * as repo from './sms-replies.repo.ts';

const DAY_MS = 86_400_000;
/** How far back a reply without an extension looks for the SMS it answers. */
const UNATTRIBUTED_LOOKBACK_MS = 7 * DAY_MS;
const SPAN_MAX_MS = 31 * DAY_MS;

/**
 * Replies from handsets (issue 17). Herald sends from the carrier's service code followed by the
 * account's id, so a reply to 10690001 42 belongs to account 42; a reply without a usable
 * extension belongs to whoever this carrier last took an SMS to that number for, within a week.
 * Each reply is kept (unattributed ones too, for the operator), linked to the newest SMS of the
 * account to that number, pushed to SMSHook as `reply`, and an opt-out word (T, R, TD, 退订 and
 * the operator's) puts the number on the account's unsubscribe list: its later SMS fail with 430.
 */
export class SmsRepliesService implements SmsReplies {
  private readonly database: Database;
  private readonly optOutWords: readonly string[];

  constructor(database: Database, options: { optOutWords?: readonly string[] } = {}) {
    this.database = database;
    this.optOutWords = [...SMS_OPT_OUT_WORDS, ...(options.optOutWords ?? [])];
  }

  async received(reply: CarrierReply): Promise<void> {
    const at = reply.receivedAt.getTime();
    const digits = reply.from.trim().replace(/^\+/, '');
    const phone = parseMobile(digits.startsWith('86') ? `+${digits}` : digits, 'CN')?.e164 ?? `+${digits}`;
    let accountId = accountOfExtension(reply.carrierSource, reply.to);
    if (accountId !== undefined && !(await repo.accountExists(this.database, accountId)))
      accountId = undefined;
    const message = await repo.latestMessageTo(
      this.database,
      phone,
      accountId !== undefined
        ? { accountId }
        : { carrierId: reply.carrierId, since: at - UNATTRIBUTED_LOOKBACK_MS },
    );
    accountId ??= message ? Number(message.account_id) : undefined;
    const optOut = accountId !== undefined && isOptOutReply(reply.text, this.optOutWords);
    await this.database.db.transaction().execute(async (trx) => {
      const scoped = { ...this.database, db: trx };
      await repo.insertReply(scoped, {
        account_id: accountId ?? null,
        sms_message_id: message ? Number(message.id) : null,
        carrier_id: reply.carrierId,
        phone,
        dest: reply.to.slice(0, 40),
        content: reply.text.slice(0, 1000),
        opt_out: optOut ? 1 : 0,
        received_at: at,
      });
      if (accountId !== undefined && message) {
        await repo.insertReplyEvent(scoped, {
          accountId,
          smsMessageId: Number(message.id),
          content: reply.text,
          at,
        });
      }
      if (optOut && accountId !== undefined) {
        await insertEntry(scoped, {
          account_id: accountId,
          kind: 'unsubscribe',
          phone,
          reason: `reply: ${reply.text.trim().slice(0, 20)}`,
          source: 'reply',
          expires_at: null,
          created_at: at,
        });
      }
    });
  }

  async list(
    { accountId }: Caller,
    q: { phone?: string | undefined; startTime: number; endTime: number; page: number; pageSize: number },
  ): Promise<{ total: number; list: SmsReplyView[] }> {
    const phone = q.phone ? (parseMobile(q.phone, 'CN')?.e164 ?? q.phone) : undefined;
    const { rows, total } = await repo.listReplies(this.database, accountId, {
      phone,
      from: q.startTime,
      to: q.endTime + 1,
      offset: (q.page - 1) * q.pageSize,
      limit: q.pageSize,
    });
    return {
      total,
      list: rows.map((r) => ({
        id: Number(r.id),
        phone: r.phone,
        content: r.content,
        optOut: Number(r.opt_out) === 1,
        receivedAt: Number(r.received_at),
        smsId: r.sms_id ?? null,
        templateId: r.template_id === null || r.template_id === undefined ? null : Number(r.template_id),
      })),
    };
  }

  /** Replies and opt-outs per Beijing day of the period, quiet days as zeros. */
  async days({ accountId }: Caller, from: number, to: number): Promise<SmsReplyDay[]> {
    if (to < from || to - from > SPAN_MAX_MS) throw new AppError('SMS_QUERY_SPAN');
    const rows = await repo.repliesPerDay(this.database, accountId, from, to + 1);
    const found = new Map(
      rows.map((r) => {
        const day = epochDay(Number(r.day));
        return [day, { day, replies: Number(r.replies), optOuts: Number(r.opt_outs ?? 0) }];
      }),
    );
    return everyDay(from, to, found, (day) => ({ day, replies: 0, optOuts: 0 }));
  }
}
