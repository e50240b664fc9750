import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** The SQL of tracking hits: the recipient a token names, and its first open/click marks. */
export function findTrackedRecipient(db: Kysely<DB>, accountId: number, recipientId: number) {
  return db
    .selectFrom('message_recipients')
    .select(['id', 'account_id', 'delivered_at'])
    .where('id', '=', recipientId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/**
 * Marks the recipient's first open (or click) at `at`; true when this call set it. The update
 * only fills a NULL column, so of two concurrent hits exactly one sees its row change.
 */
export async function markFirst(
  trx: Kysely<DB>,
  accountId: number,
  recipientId: number,
  kind: 'open' | 'click',
  at: number,
): Promise<boolean> {
  await trx
    .insertInto('recipient_tracks')
    .values({ recipient_id: recipientId, account_id: accountId, first_open_at: null, first_click_at: null })
    .onConflict((oc) => oc.column('recipient_id').doNothing())
    .execute();
  const column = kind === 'open' ? 'first_open_at' : 'first_click_at';
  const result = await trx
    .updateTable('recipient_tracks')
    .set({ [column]: at })
    .where('recipient_id', '=', recipientId)
    .where(column, 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The open and click switches of these API_USERs. */
export function trackingSwitches(db: Kysely<DB>, apiUserIds: number[]) {
  return db
    .selectFrom('api_users')
    .select(['id', 'open_tracking', 'click_tracking'])
    .where('id', 'in', apiUserIds)
    .execute();
}
