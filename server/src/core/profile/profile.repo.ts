import type { Database } from '../../db/database.ts';

export async function findProfile({ db }: Database, accountId: number, userId: number) {
  return db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select([
      'users.id',
      'users.username',
      'users.email',
      'users.phone',
      'users.receive_email',
      'users.is_owner',
      'users.created_at',
      'accounts.username as account_name',
      'accounts.created_at as account_created_at',
    ])
    .where('users.account_id', '=', accountId)
    .where('users.id', '=', userId)
    .executeTakeFirst();
}

export async function findOwner({ db }: Database, accountId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'phone', 'created_at'])
    .where('account_id', '=', accountId)
    .where('is_owner', '=', 1)
    .executeTakeFirst();
}

export type ProfileField = 'email' | 'phone' | 'username' | 'receive_email';

export async function updateProfileField(
  { db }: Database,
  accountId: number,
  userId: number,
  field: ProfileField,
  value: string | null,
  now: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ [field]: value, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .execute();
}
