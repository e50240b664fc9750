import type { Database } from '../../db/database.ts';

/** Labels of one account; every query is scoped to it. */
const COLUMNS = ['id', 'name', 'created_at', 'updated_at'] as const;

export type LabelRow = { id: number; name: string; created_at: number; updated_at: number };

/** Every label of the account, newest first (an account holds a handful; filters run in the service). */
export async function listLabels({ db }: Database, accountId: number): Promise<LabelRow[]> {
  return db
    .selectFrom('labels')
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .execute();
}

export async function findLabel(
  { db }: Database,
  accountId: number,
  id: number,
): Promise<LabelRow | undefined> {
  return db
    .selectFrom('labels')
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findLabelByName(
  { db }: Database,
  accountId: number,
  name: string,
): Promise<LabelRow | undefined> {
  return db
    .selectFrom('labels')
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function insertLabel(
  { db }: Database,
  accountId: number,
  name: string,
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('labels')
    .values({ account_id: accountId, name, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function renameLabel(
  { db }: Database,
  accountId: number,
  id: number,
  name: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('labels')
    .set({ name, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** API_USERs that carried the label keep working without one (the foreign key sets null). */
export async function deleteLabel({ db }: Database, accountId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('labels')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
