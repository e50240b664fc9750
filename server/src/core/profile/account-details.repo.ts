import type { Database } from '../../db/database.ts';
import type { AccountProfilesTable } from '../../db/schema.ts';

export type AccountDetailsPatch = Partial<Omit<AccountProfilesTable, 'account_id' | 'updated_at'>>;

export async function findAccountDetails({ db }: Database, accountId: number) {
  return db.selectFrom('account_profiles').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

/** Writes the given columns of the account's row, creating it on the first change. */
export async function upsertAccountDetails(
  { db }: Database,
  accountId: number,
  patch: AccountDetailsPatch,
  now: number,
): Promise<void> {
  await db
    .insertInto('account_profiles')
    .values({ account_id: accountId, ...patch, updated_at: now })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...patch, updated_at: now }))
    .execute();
}

export async function isOwner({ db }: Database, accountId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('is_owner')
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.is_owner === 1;
}

export async function ownerEmail({ db }: Database, accountId: number): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select('email')
    .where('account_id', '=', accountId)
    .where('is_owner', '=', 1)
    .executeTakeFirst();
  return row?.email ?? null;
}
