import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { MessageNotifiersTable, SiteMessagesTable } from '../../db/site-message-schema.ts';

/** The SQL of the message centre: messages, settings, notifiers, SMS notices (migrations 0059, 0060). */

export type SiteMessageRow = Selectable<SiteMessagesTable>;

export async function insertMessage(
  { db }: Database,
  message: Omit<SiteMessageRow, 'id' | 'read_at' | 'notified_at'>,
): Promise<void> {
  await db.insertInto('site_messages').values(message).execute();
}

/** One page of an account's messages, newest first. */
export async function listMessages(
  { db }: Database,
  filter: { accountId: number; unread?: boolean; category?: string; offset: number; limit: number },
): Promise<{ rows: SiteMessageRow[]; total: number }> {
  let query = db.selectFrom('site_messages').where('account_id', '=', filter.accountId);
  if (filter.unread) query = query.where('read_at', 'is', null);
  if (filter.category) query = query.where('category', '=', filter.category);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id', 'desc').offset(filter.offset).limit(filter.limit).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function countUnread({ db }: Database, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('site_messages')
    .where('account_id', '=', accountId)
    .where('read_at', 'is', null)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks the account's unread messages read: those of `ids`, or all when `ids` is undefined. */
export async function markRead(
  { db }: Database,
  accountId: number,
  ids: number[] | undefined,
  now: number,
): Promise<void> {
  let query = db
    .updateTable('site_messages')
    .set({ read_at: now })
    .where('account_id', '=', accountId)
    .where('read_at', 'is', null);
  if (ids) query = query.where('id', 'in', ids);
  await query.execute();
}

/** Messages nobody has claimed for mail and SMS yet, oldest first. */
export function messagesToNotify({ db }: Database, limit: number): Promise<SiteMessageRow[]> {
  return db
    .selectFrom('site_messages')
    .selectAll()
    .where('notified_at', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Claims a message for its notices; true only for the one caller that did. */
export async function claimToNotify({ db }: Database, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('site_messages')
    .set({ notified_at: now })
    .where('id', '=', id)
    .where('notified_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function listSettings({ db }: Database, accountId: number) {
  return db
    .selectFrom('message_settings')
    .select(['category', 'email', 'sms'])
    .where('account_id', '=', accountId)
    .execute();
}

export async function saveSetting(
  { db }: Database,
  accountId: number,
  setting: { category: string; email: boolean; sms: boolean },
  now: number,
): Promise<void> {
  const values = { email: setting.email ? 1 : 0, sms: setting.sms ? 1 : 0, updated_at: now };
  await db
    .insertInto('message_settings')
    .values({ account_id: accountId, category: setting.category, ...values })
    .onConflict((oc) => oc.columns(['account_id', 'category']).doUpdateSet(values))
    .execute();
}

export type NotifierRow = Selectable<MessageNotifiersTable>;

export function listNotifiers({ db }: Database, accountId: number): Promise<NotifierRow[]> {
  return db
    .selectFrom('message_notifiers')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

/** Adds a notifier; false when the account has it already. */
export async function insertNotifier({ db }: Database, notifier: Omit<NotifierRow, 'id'>): Promise<boolean> {
  const row = await db
    .insertInto('message_notifiers')
    .values(notifier)
    .onConflict((oc) => oc.columns(['account_id', 'kind', 'address']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteNotifier({ db }: Database, accountId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('message_notifiers')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function noticeSmsCount(db: Kysely<DB>, accountId: number, month: string): Promise<number> {
  const row = await db
    .selectFrom('notice_sms')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('month', '=', month)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Records an SMS notice of a message to a phone; false when it was recorded already. */
export async function insertNoticeSms(
  trx: Kysely<DB>,
  row: { message_id: number; phone: string; account_id: number; month: string; sent_at: number },
): Promise<boolean> {
  const inserted = await trx
    .insertInto('notice_sms')
    .values(row)
    .onConflict((oc) => oc.columns(['message_id', 'phone']).doNothing())
    .returning('message_id')
    .executeTakeFirst();
  return inserted !== undefined;
}
