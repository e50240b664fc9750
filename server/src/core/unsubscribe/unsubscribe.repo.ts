import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { UnsubscribePagesTable } from '../../db/unsubscribe-schema.ts';

/** SQL of unsubscribe pages, the choice of page, and what an unsubscribe link names. */

export type PageRow = Selectable<UnsubscribePagesTable>;

export async function listPages({ db }: Database, accountId: number): Promise<PageRow[]> {
  return db
    .selectFrom('unsubscribe_pages')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

export async function countPages({ db }: Database, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('unsubscribe_pages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findPage(
  { db }: Database,
  accountId: number,
  id: number,
): Promise<PageRow | undefined> {
  return db
    .selectFrom('unsubscribe_pages')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findPageByName(
  { db }: Database,
  accountId: number,
  name: string,
): Promise<PageRow | undefined> {
  return db
    .selectFrom('unsubscribe_pages')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function insertPage(
  { db }: Database,
  accountId: number,
  name: string,
  settings: string,
  at: number,
): Promise<number> {
  const row = await db
    .insertInto('unsubscribe_pages')
    .values({ account_id: accountId, name, settings, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updatePage(
  { db }: Database,
  accountId: number,
  id: number,
  name: string,
  settings: string,
  at: number,
): Promise<boolean> {
  const result = await db
    .updateTable('unsubscribe_pages')
    .set({ name, settings, updated_at: at })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a page; its choices go with it (ON DELETE CASCADE). */
export async function deletePage({ db }: Database, accountId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('unsubscribe_pages')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listChoices(
  { db }: Database,
  accountId: number,
): Promise<{ api_user_id: number; page_id: number }[]> {
  return db
    .selectFrom('unsubscribe_page_choices')
    .select(['api_user_id', 'page_id'])
    .where('account_id', '=', accountId)
    .orderBy('api_user_id')
    .execute();
}

/** Sets (pageId) or clears (null) the page of the account (apiUserId 0) or of one API_USER. */
export async function setChoice(
  { db }: Database,
  accountId: number,
  apiUserId: number,
  pageId: number | null,
  at: number,
): Promise<void> {
  if (pageId === null) {
    await db
      .deleteFrom('unsubscribe_page_choices')
      .where('account_id', '=', accountId)
      .where('api_user_id', '=', apiUserId)
      .execute();
    return;
  }
  await db
    .insertInto('unsubscribe_page_choices')
    .values({ account_id: accountId, api_user_id: apiUserId, page_id: pageId, updated_at: at })
    .onConflict((oc) =>
      oc.columns(['account_id', 'api_user_id']).doUpdateSet({ page_id: pageId, updated_at: at }),
    )
    .execute();
}

/** The page a recipient of `apiUserId`'s mail sees: the API_USER's choice, else the account's. */
export async function chosenPage(
  { db }: Database,
  accountId: number,
  apiUserId: number | null,
): Promise<PageRow | undefined> {
  return db
    .selectFrom('unsubscribe_page_choices as c')
    .innerJoin('unsubscribe_pages as p', 'p.id', 'c.page_id')
    .selectAll('p')
    .where('c.account_id', '=', accountId)
    .where('c.api_user_id', 'in', apiUserId ? [0, apiUserId] : [0])
    .orderBy('c.api_user_id', 'desc')
    .executeTakeFirst();
}

export async function apiUserExists({ db }: Database, accountId: number, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('api_users')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/** The recipient row a link names, with its mail's API_USER and label; only in that account. */
export async function findLinkedRecipient(
  { db }: Database,
  accountId: number,
  recipientId: number,
): Promise<{ recipient: string; api_user_id: number | null; label_id: number | null } | undefined> {
  return db
    .selectFrom('message_recipients as r')
    .innerJoin('messages as m', 'm.id', 'r.message_id')
    .select(['r.recipient', 'm.api_user_id', 'm.label_id'])
    .where('r.id', '=', recipientId)
    .where('r.account_id', '=', accountId)
    .executeTakeFirst();
}

export async function hasUnsubscribeEvent(trx: Kysely<DB>, recipientId: number): Promise<boolean> {
  const row = await trx
    .selectFrom('mail_events')
    .select('id')
    .where('recipient_id', '=', recipientId)
    .where('kind', '=', 'unsubscribe')
    .executeTakeFirst();
  return row !== undefined;
}

export async function accountExists({ db }: Database, accountId: number): Promise<boolean> {
  const row = await db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
  return row !== undefined;
}
