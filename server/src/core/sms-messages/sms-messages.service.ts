import { AppError, epochDay, type SmsDataDay, type SmsDataView, type SmsStatus } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller } from '../context.ts';
import { contentSince } from '../sms-content-view/sms-content-view.service.ts';
import * as repo from './sms-messages.repo.ts';
import type { SmsMessageQuery } from './sms-messages.types.ts';

export interface SmsMessageView {
  smsId: string;
  msgType: number;
  phone: string;
  country: string;
  /** The text as sent; null unless the caller asked for it and the content view allows it. */
  content: string | null;
  parts: number;
  templateId: number | null;
  templateName: string | null;
  smsUser: string | null;
  labelId: number | null;
  /** Null when the SMS has no label or its label was deleted since. */
  labelName: string | null;
  status: SmsStatus;
  statusCode: number;
  reason: string | null;
  requestedAt: number;
  updatedAt: number;
}

/** The longest period one query may span (product-spec §5: a query spans at most a month). */
export const SMS_QUERY_MAX_MS = 31 * 86_400_000;

/**
 * Reading the account's SMS: the status query of the SMS API (`status/query`) and the console's
 * status screen. Always scoped to the caller's account; a period longer than a month is refused.
 */
export class SmsMessagesService {
  private readonly database: Database;
  private readonly now: () => number;

  constructor(database: Database, options: { now?: () => number } = {}) {
    this.database = database;
    this.now = options.now ?? Date.now;
  }

  /** Per Beijing day of the period: requests, outcomes and billed parts, oldest day first. */
  async days({ accountId }: Caller, from: number, to: number): Promise<SmsDataDay[]> {
    if (to - from > SMS_QUERY_MAX_MS || to < from) throw new AppError('SMS_QUERY_SPAN');
    const rows = await repo.dayFigures(this.database, accountId, from, to);
    return rows.map((r) => ({
      day: epochDay(Number(r.day)),
      requested: Number(r.requested),
      delivered: Number(r.delivered ?? 0),
      processFailed: Number(r.process_failed ?? 0),
      sendFailed: Number(r.send_failed ?? 0),
      waiting: Number(r.waiting ?? 0),
      billedParts: Number(r.billed ?? 0),
    }));
  }

  /** The send data screen's view: the days, their totals and the failures by code. */
  async summary(caller: Caller, from: number, to: number): Promise<SmsDataView> {
    const days = await this.days(caller, from, to);
    const failures = await this.failures(caller, from, to);
    const sum = (key: Exclude<keyof SmsDataDay, 'day'>) => days.reduce((n, d) => n + d[key], 0);
    return {
      days,
      totals: {
        requested: sum('requested'),
        delivered: sum('delivered'),
        processFailed: sum('processFailed'),
        sendFailed: sum('sendFailed'),
        waiting: sum('waiting'),
        billedParts: sum('billedParts'),
      },
      failures: [...failures].map(([code, count]) => ({ code, count })).sort((a, b) => a.code - b.code),
    };
  }

  /** How many SMS of the period ended with each failure code (4xx processing, 5xx sending). */
  async failures({ accountId }: Caller, from: number, to: number): Promise<Map<number, number>> {
    if (to - from > SMS_QUERY_MAX_MS || to < from) throw new AppError('SMS_QUERY_SPAN');
    const rows = await repo.failureCounts(this.database, accountId, from, to);
    return new Map(rows.map((r) => [Number(r.status_code), Number(r.n)]));
  }

  /**
   * A page of the account's SMS, newest first. With `content`, each SMS carries its text when the
   * account's content view allows it (on, paid, and within its days); otherwise never.
   */
  async query(
    { accountId }: Caller,
    q: SmsMessageQuery,
    options: { content?: boolean } = {},
  ): Promise<{ total: number; items: SmsMessageView[] }> {
    if (q.to - q.from > SMS_QUERY_MAX_MS || q.to < q.from) throw new AppError('SMS_QUERY_SPAN');
    const since = options.content ? await contentSince(this.database, accountId, this.now()) : null;
    const { rows, total } = await repo.findMessages(this.database, accountId, q, since);
    return {
      total,
      items: rows.map((r) => ({
        smsId: r.sms_id,
        msgType: Number(r.msg_type),
        phone: r.phone,
        country: r.country,
        content: r.content,
        parts: Number(r.parts),
        templateId: r.template_id === null ? null : Number(r.template_id),
        templateName: r.template_name ?? null,
        smsUser: r.sms_user ?? null,
        labelId: r.label_id === null ? null : Number(r.label_id),
        labelName: r.label_name ?? null,
        status: r.status,
        statusCode: Number(r.status_code),
        reason: r.reason,
        requestedAt: Number(r.requested_at),
        updatedAt: Number(r.done_at ?? r.submitted_at ?? r.requested_at),
      })),
    };
  }
}
