import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { SmsMessageQuery } from './sms-messages.service.ts';

/** The SQL of reading an account's SMS: statuses, per-day figures, failures by code. */

const DAY_MS = 86_400_000;
const BEIJING_MS = 8 * 3600_000;

/** Per Beijing day (days since the epoch) of the period: counts by fate and billed parts. */
export async function dayFigures(database: Database, accountId: number, from: number, to: number) {
  // Literals, not parameters: PostgreSQL matches the grouped expression to the selected one by its text.
  const dayOf = sql<number>`(requested_at + ${sql.lit(BEIJING_MS)}) / ${sql.lit(DAY_MS)}`;
  const count = (status: string) => sql<number>`SUM(CASE WHEN status = ${sql.lit(status)} THEN 1 ELSE 0 END)`;
  const rows = await database.db
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
  return rows;
}

export async function failureCounts(database: Database, accountId: number, from: number, to: number) {
  const rows = await database.db
    .selectFrom('sms_messages')
    .select(['status_code', (eb) => eb.fn.countAll<number>().as('n')])
    .where('account_id', '=', accountId)
    .where('requested_at', '>=', from)
    .where('requested_at', '<', to)
    .where('status', 'in', ['processing_failed', 'send_failed'])
    .groupBy('status_code')
    .execute();
  return rows;
}

export async function findMessages(database: Database, accountId: number, q: SmsMessageQuery) {
  const { db } = database;
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
  return { rows, total: Number(counted?.n ?? 0) };
}
