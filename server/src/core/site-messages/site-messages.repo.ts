import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { SiteMessagesTable } from '../../db/site-message-schema.ts';

/** The SQL of the message centre (migration 0059). */

export type SiteMessageRow = Selectable<SiteMessagesTable>;

export async function insertMessage(
  { db }: Database,
  message: Omit<SiteMessageRow, 'id' | 'read_at'>,
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
