import type { Database } from '../../db/database.ts';

export async function findWhitelist({ db }: Database, accountId: number) {
  return db
    .selectFrom('account_ip_whitelists')
    .select(['enabled', 'entries', 'updated_at'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** Writes the entries and/or the switch, creating the account's row (off, empty) when needed. */
export async function upsertWhitelist(
  { db }: Database,
  accountId: number,
  patch: { entries?: string; enabled?: number },
  now: number,
): Promise<void> {
  await db
    .insertInto('account_ip_whitelists')
    .values({ account_id: accountId, ...patch, updated_at: now })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...patch, updated_at: now }))
    .execute();
}

/** The caller's place in the team, for the rule on who changes the whitelist. */
export async function findTeamRole({ db }: Database, accountId: number, userId: number) {
  return db
    .selectFrom('users')
    .select(['is_owner', 'member_type'])
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .executeTakeFirst();
}
