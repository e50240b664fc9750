import { AppError, type SmsStatus } from '@herald/shared';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Caller } from '../context.ts';

export interface SmsMessageQuery {
  smsIds?: string[];
  phones?: string[];
  from: number;
  to: number;
  msgType?: number;
  templateId?: number;
  status?: SmsStatus;
  start: number;
  limit: number;
}

export interface SmsMessageView {
  smsId: string;
  msgType: number;
  phone: string;
  country: string;
  content: string;
  parts: number;
  templateId: number | null;
  templateName: string | null;
  smsUser: string | null;
  status: SmsStatus;
  statusCode: number;
  reason: string | null;
  requestedAt: number;
  updatedAt: number;
}

/** One Beijing day of an account's SMS, by fate. */
export interface SmsDayFigures {
  /** yyyy-MM-dd, Beijing time. */
  day: string;
  requested: number;
  delivered: number;
  processFailed: number;
  sendFailed: number;
  waiting: number;
  /** Parts handed to a carrier (what sending is charged by). */
  billedParts: number;
}

const DAY_MS = 86_400_000;
const BEIJING_MS = 8 * 3600_000;

/** The longest period one query may span (product-spec §5: a query spans at most a month). */
export const SMS_QUERY_MAX_MS = 31 * 86_400_000;

/**
 * Reading the account's SMS: the status query of the SMS API (`status/query`) and the console's
 * status screen. Always scoped to the caller's account; a period longer than a month is refused.
 */
export class SmsMessagesService {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  /** Per Beijing day of the period: requests, outcomes and billed parts, oldest day first. */
  async days({ accountId }: Caller, from: number, to: number): Promise<SmsDayFigures[]> {
    if (to - from > SMS_QUERY_MAX_MS || to < from) throw new AppError('SMS_QUERY_SPAN');
    // Literals, not parameters: PostgreSQL matches the grouped expression to the selected one by its text.
    const dayOf = sql<number>`(requested_at + ${sql.lit(BEIJING_MS)}) / ${sql.lit(DAY_MS)}`;
    const count = (status: string) =>
      sql<number>`SUM(CASE WHEN status = ${sql.lit(status)} THEN 1 ELSE 0 END)`;
    const rows = await this.database.db
      .selectFrom('sms_messages')
      .select([
        dayOf.as('day'),
        (eb) => eb.fn.countAll<number>().as('requested'),
        count('delivered').as('delivered'),
        count('processing_failed').as('process_failed'),
        count('send_failed').as('send_failed'),
        sql<number>`SUM(CASE WHEN status IN ('waiting', 'requesting') THEN 1 ELSE 0 END)`.as('waiting'),
        sql<number>`SUM(CASE WHEN submitted_at IS NOT NULL THEN parts ELSE 0 END)`.as('billed'),
      ])
      .where('account_id', '=', accountId)
      .where('requested_at', '>=', from)
      .where('requested_at', '<', to)
      .groupBy(dayOf)
      .orderBy(dayOf)
      .execute();
    return rows.map((r) => ({
      day: new Date(Math.floor(Number(r.day)) * DAY_MS).toISOString().slice(0, 10),
      requested: Number(r.requested),
      delivered: Number(r.delivered ?? 0),
      processFailed: Number(r.process_failed ?? 0),
      sendFailed: Number(r.send_failed ?? 0),
      waiting: Number(r.waiting ?? 0),
      billedParts: Number(r.billed ?? 0),
    }));
  }

  /** How many SMS of the period ended with each failure code (4xx processing, 5xx sending). */
  async failures({ accountId }: Caller, from: number, to: number): Promise<Map<number, number>> {
    if (to - from > SMS_QUERY_MAX_MS || to < from) throw new AppError('SMS_QUERY_SPAN');
    const rows = await this.database.db
      .selectFrom('sms_messages')
      .select(['status_code', (eb) => eb.fn.countAll<number>().as('n')])
      .where('account_id', '=', accountId)
      .where('requested_at', '>=', from)
      .where('requested_at', '<', to)
      .where('status', 'in', ['processing_failed', 'send_failed'])
      .groupBy('status_code')
      .execute();
    return new Map(rows.map((r) => [Number(r.status_code), Number(r.n)]));
  }

  async query(
    { accountId }: Caller,
    q: SmsMessageQuery,
  ): Promise<{ total: number; items: SmsMessageView[] }> {
    if (q.to - q.from > SMS_QUERY_MAX_MS || q.to < q.from) throw new AppError('SMS_QUERY_SPAN');
    const { db } = this.database;
    let base = db
      .selectFrom('sms_messages as m')
      .where('m.account_id', '=', accountId)
      .where('m.requested_at', '>=', q.from)
      .where('m.requested_at', '<', q.to);
    if (q.smsIds?.length) base = base.where('m.sms_id', 'in', q.smsIds);
    if (q.phones?.length) base = base.where('m.phone', 'in', q.phones);
    if (q.msgType !== undefined) base = base.where('m.msg_type', '=', q.msgType);
    if (q.templateId !== undefined) base = base.where('m.template_id', '=', q.templateId);
    if (q.status) base = base.where('m.status', '=', q.status);
    const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await base
      .leftJoin('sms_templates as t', 't.id', 'm.template_id')
      .leftJoin('sms_users as u', 'u.id', 'm.sms_user_id')
      .select([
        'm.sms_id',
        'm.msg_type',
        'm.phone',
        'm.country',
        'm.content',
        'm.parts',
        'm.template_id',
        't.name as template_name',
        'u.name as sms_user',
        'm.status',
        'm.status_code',
        'm.reason',
        'm.requested_at',
        'm.submitted_at',
        'm.done_at',
      ])
      .orderBy('m.id', 'desc')
      .offset(q.start)
      .limit(q.limit)
      .execute();
    return {
      total: Number(counted?.n ?? 0),
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
        status: r.status,
        statusCode: Number(r.status_code),
        reason: r.reason,
        requestedAt: Number(r.requested_at),
        updatedAt: Number(r.done_at ?? r.submitted_at ?? r.requested_at),
      })),
    };
  }
}
