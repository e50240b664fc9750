import { sql } from 'kysely';
import { beijingDayOf } from '../../db/beijing-day.ts';
import type { Database } from '../../db/database.ts';
import { takeSmsEventOrder } from '../../db/sms-event-log.ts';

/** The SQL of replies: attributing one, recording it, and the console's list and daily counts. */

export async function accountExists({ db }: Database, accountId: number): Promise<boolean> {
  const row = await db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
  return row !== undefined;
}

/** The newest SMS to this number: of the account, or (account unknown) taken by this carrier. */
export function latestMessageTo(
  { db }: Database,
  phone: string,
  by: { accountId: number } | { carrierId: number; since: number },
) {
  let query = db
    .selectFrom('sms_messages')
    .select(['id', 'account_id'])
    .where('phone', '=', phone)
    .orderBy('requested_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1);
  query =
    'accountId' in by
      ? query.where('account_id', '=', by.accountId)
      : query.where('carrier_id', '=', by.carrierId).where('requested_at', '>=', by.since);
  return query.executeTakeFirst();
}

export async function insertReply(
  { db }: Database,
  values: {
    account_id: number | null;
    sms_message_id: number | null;
    carrier_id: number;
    phone: string;
    dest: string;
    content: string;
    opt_out: number;
    received_at: number;
  },
): Promise<void> {
  await db.insertInto('sms_replies').values(values).execute();
}

/** The reply as an SMS event of its message, for SMSHook `reply` pushes (in the caller's transaction). */
export async function insertReplyEvent(
  { db, dialect }: Database,
  values: { accountId: number; smsMessageId: number; content: string; at: number },
): Promise<void> {
  await takeSmsEventOrder(db, dialect);
  await db
    .insertInto('sms_events')
    .values({
      account_id: values.accountId,
      sms_message_id: values.smsMessageId,
      kind: 'reply',
      status_code: 200,
      message: values.content.slice(0, 1000),
      at: values.at,
    })
    .execute();
}

export async function listReplies(
  { db }: Database,
  accountId: number,
  filter: { phone?: string | undefined; from: number; to: number; offset: number; limit: number },
) {
  let query = db
    .selectFrom('sms_replies as r')
    .leftJoin('sms_messages as m', 'm.id', 'r.sms_message_id')
    .where('r.account_id', '=', accountId)
    .where('r.received_at', '>=', filter.from)
    .where('r.received_at', '<', filter.to);
  if (filter.phone) query = query.where('r.phone', '=', filter.phone);
  const [rows, count] = await Promise.all([
    query
      .select(['r.id', 'r.phone', 'r.content', 'r.opt_out', 'r.received_at', 'm.sms_id', 'm.template_id'])
      .orderBy('r.received_at', 'desc')
      .orderBy('r.id', 'desc')
      .offset(filter.offset)
      .limit(filter.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

/** Replies and opt-outs per Beijing day (days since the epoch) of the period. */
export function repliesPerDay({ db }: Database, accountId: number, from: number, to: number) {
  const dayOf = beijingDayOf('received_at');
  return db
    .selectFrom('sms_replies')
    .select([
      dayOf.as('day'),
      (eb) => eb.fn.countAll<number>().as('replies'),
      sql<number>`SUM(opt_out)`.as('opt_outs'),
    ])
    .where('account_id', '=', accountId)
    .where('received_at', '>=', from)
    .where('received_at', '<', to)
    .groupBy(dayOf)
    .orderBy(dayOf)
    .execute();
}
