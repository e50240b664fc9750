import type { Database } from '../../db/database.ts';
import type { AccountState } from '../../db/schema.ts';

export async function insertAccount(
  { db }: Database,
  username: string,
  kind: 'customer' | 'platform',
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('accounts')
    .values({ username, kind, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findAccount({ db }: Database, accountId: number) {
  return db
    .selectFrom('accounts')
    .select(['id', 'username', 'is_huawei_yun', 'kind'])
    .where('id', '=', accountId)
    .executeTakeFirst();
}

/** The platform's own account (kind `platform`), if it exists yet. */
export async function findPlatformAccount({ db }: Database) {
  return db.selectFrom('accounts').select('id').where('kind', '=', 'platform').executeTakeFirst();
}

/** The account with its owner's email and phone; throws when the account has no owner. */
export async function findAccountWithOwner({ db }: Database, accountId: number) {
  return db
    .selectFrom('accounts')
    .innerJoin('users', (join) =>
      join.onRef('users.account_id', '=', 'accounts.id').on('users.is_owner', '=', 1),
    )
    .select([
      'accounts.username',
      'accounts.plan',
      'accounts.daily_quota',
      'accounts.created_at',
      'users.email',
      'users.phone',
    ])
    .where('accounts.id', '=', accountId)
    .executeTakeFirstOrThrow();
}

export async function setHuaweiYun({ db }: Database, accountId: number, flag: boolean): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ is_huawei_yun: flag ? 1 : 0 })
    .where('id', '=', accountId)
    .execute();
}

export async function findState({ db }: Database, accountId: number): Promise<AccountState | undefined> {
  const row = await db.selectFrom('accounts').select('state').where('id', '=', accountId).executeTakeFirst();
  return row?.state;
}

export async function setState({ db }: Database, accountId: number, state: AccountState, now: number) {
  await db
    .updateTable('accounts')
    .set({ state, state_changed_at: now, updated_at: now })
    .where('id', '=', accountId)
    .execute();
}
