import { parseMobile } from '@herald/shared';
import { sql } from 'kysely';
import { beijingDayOf } from '../../db/beijing-day.ts';
import type { Database } from '../../db/database.ts';
import type { SmsMessageFilter, SmsMessageQuery } from './sms-messages.types.ts';

/** The SQL of reading an account's SMS: statuses, per-day figures, failures by code. */

/** Per Beijing day (days since the epoch) of the period: counts by fate and billed parts. */
export async function dayFigures(database: Database, accountId: number, from: number, to: number) {
  const dayOf = beijingDayOf('requested_at');
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

/** The messages a status query or export selects (every filter given; the account always). */
function filtered({ db }: Database, accountId: number, q: SmsMessageFilter) {
  let base = db
    .selectFrom('sms_messages as m')
    .where('m.account_id', '=', accountId)
    .where('m.requested_at', '>=', q.from)
    .where('m.requested_at', '<', q.to);
  if (q.smsIds?.length) base = base.where('m.sms_id', 'in', q.smsIds);
  // As the caller sent them (a mainland number without +86): kept in E.164.
  if (q.phones?.length)
    base = base.where(
      'm.phone',
      'in',
      q.phones.map((p) => parseMobile(p, 'CN')?.e164 ?? p),
    );
  if (q.msgType !== undefined) base = base.where('m.msg_type', '=', q.msgType);
  if (q.templateId !== undefined) base = base.where('m.template_id', '=', q.templateId);
  if (q.labelId !== undefined) base = base.where('m.label_id', '=', q.labelId);
  if (q.status) base = base.where('m.status', '=', q.status);
  return base;
}

/**
 * The columns of a listed SMS. The text is read only for SMS requested at or after
 * `contentSince`, and for none when it is null: what the caller may not see never leaves the
 * database.
 */
function listed(database: Database, accountId: number, q: SmsMessageFilter, contentSince: number | null) {
  return filtered(database, accountId, q)
    .leftJoin('sms_templates as t', 't.id', 'm.template_id')
    .leftJoin('sms_users as u', 'u.id', 'm.sms_user_id')
    .leftJoin('labels as l', (join) =>
      join
        .onRef('l.id', '=', 'm.label_id')
        .onRef('l.account_id', '=', 'm.account_id')
        .on('l.channel', '=', 'sms'),
    )
    .select((eb) => [
      'm.id',
      'm.sms_id',
      'm.msg_type',
      'm.phone',
      'm.country',
      contentSince === null
        ? sql<string | null>`NULL`.as('content')
        : eb.case().when('m.requested_at', '>=', contentSince).then(eb.ref('m.content')).end().as('content'),
      'm.parts',
      'm.template_id',
      't.name as template_name',
      'u.name as sms_user',
      'm.label_id',
      'l.name as label_name',
      'm.status',
      'm.status_code',
      'm.reason',
      'm.requested_at',
      'm.submitted_at',
      'm.done_at',
    ]);
}

export async function countMessages(database: Database, accountId: number, q: SmsMessageFilter) {
  const counted = await filtered(database, accountId, q)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(counted?.n ?? 0);
}

export async function findMessages(
  database: Database,
  accountId: number,
  q: SmsMessageQuery,
  contentSince: number | null = null,
) {
  const total = await countMessages(database, accountId, q);
  const rows = await listed(database, accountId, q, contentSince)
    .orderBy('m.id', 'desc')
    .offset(q.start)
    .limit(q.limit)
    .execute();
  return { rows, total };
}

/**
 * A page of an export, newest first by (request time, id): the rows after `after` in that order,
 * so page N costs what page 1 costs.
 */
export function messagesPage(
  database: Database,
  accountId: number,
  q: SmsMessageFilter,
  contentSince: number | null,
  after: { requestedAt: number; id: number } | null,
  limit: number,
) {
  let page = listed(database, accountId, q, contentSince);
  if (after) {
    page = page.where((eb) =>
      eb.or([
        eb('m.requested_at', '<', after.requestedAt),
        eb.and([eb('m.requested_at', '=', after.requestedAt), eb('m.id', '<', after.id)]),
      ]),
    );
  }
  return page.orderBy('m.requested_at', 'desc').orderBy('m.id', 'desc').limit(limit).execute();
}
