import type { Kysely, Selectable } from 'kysely';
import type { Database, Dialect } from '../../db/database.ts';
import type { MailEventsTable } from '../../db/mail-event-schema.ts';
import type { DB } from '../../db/schema.ts';

/**
 * Takes consumer `name`'s cursor row inside `trx` (creating it at 0) and answers where it stands.
 * The upsert comes first so it also takes SQLite's write lock; PostgreSQL locks the row.
 */
export async function lockCursor(
  trx: Kysely<DB>,
  dialect: Dialect,
  name: string,
  now: number,
): Promise<number> {
  await trx
    .insertInto('mail_event_cursors')
    .values({ name, last_id: 0, updated_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ updated_at: now }))
    .execute();
  let cursor = trx.selectFrom('mail_event_cursors').select('last_id').where('name', '=', name);
  if (dialect === 'postgres') cursor = cursor.forUpdate();
  return Number((await cursor.executeTakeFirstOrThrow()).last_id);
}

export function eventsAfter(
  trx: Kysely<DB>,
  lastId: number,
  limit: number,
): Promise<Selectable<MailEventsTable>[]> {
  return trx
    .selectFrom('mail_events')
    .selectAll()
    .where('id', '>', lastId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function advanceCursor(
  trx: Kysely<DB>,
  name: string,
  lastId: number,
  now: number,
): Promise<void> {
  await trx
    .updateTable('mail_event_cursors')
    .set({ last_id: lastId, updated_at: now })
    .where('name', '=', name)
    .execute();
}

export async function cursorOf({ db }: Database, name: string): Promise<number> {
  const row = await db
    .selectFrom('mail_event_cursors')
    .select('last_id')
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? Number(row.last_id) : 0;
}

export async function newestEventId({ db }: Database): Promise<number> {
  const row = await db
    .selectFrom('mail_events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}
