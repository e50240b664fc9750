import type { LabelChannel } from '@herald/shared';
import type { Database } from '../../db/database.ts';

/** Labels of one account and one channel; every query is scoped to both. */
const COLUMNS = ['id', 'name', 'created_at', 'updated_at'] as const;

export type LabelRow = { id: number; name: string; created_at: number; updated_at: number };

function labelsOf({ db }: Database, accountId: number, channel: LabelChannel) {
  return db.selectFrom('labels').where('account_id', '=', accountId).where('channel', '=', channel);
}

/** Every label of the account, newest first (an account holds a handful; filters run in the service). */
export async function listLabels(
  database: Database,
  accountId: number,
  channel: LabelChannel,
): Promise<LabelRow[]> {
  return labelsOf(database, accountId, channel).select(COLUMNS).orderBy('id', 'desc').execute();
}

export async function findLabel(
  database: Database,
  accountId: number,
  id: number,
  channel: LabelChannel,
): Promise<LabelRow | undefined> {
  return labelsOf(database, accountId, channel).select(COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function findLabelByName(
  database: Database,
  accountId: number,
  name: string,
  channel: LabelChannel,
): Promise<LabelRow | undefined> {
  return labelsOf(database, accountId, channel).select(COLUMNS).where('name', '=', name).executeTakeFirst();
}

export async function insertLabel(
  { db }: Database,
  accountId: number,
  name: string,
  channel: LabelChannel,
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('labels')
    .values({ account_id: accountId, channel, name, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function renameLabel(
  { db }: Database,
  accountId: number,
  id: number,
  channel: LabelChannel,
  name: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('labels')
    .set({ name, updated_at: now })
    .where('account_id', '=', accountId)
    .where('channel', '=', channel)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * API_USERs that carried an email label keep working without one (the foreign key sets null);
 * SMS keep the id of theirs, which no longer names a label.
 */
export async function deleteLabel(
  { db }: Database,
  accountId: number,
  id: number,
  channel: LabelChannel,
): Promise<boolean> {
  const result = await db
    .deleteFrom('labels')
    .where('account_id', '=', accountId)
    .where('channel', '=', channel)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
