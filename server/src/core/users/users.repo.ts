import type { Database } from '../../db/database.ts';
import type { UsersTable } from '../../db/schema.ts';

export interface NewUser {
  accountId: number;
  username: string;
  email: string;
  phone: string | null;
  passwordHash: string | null;
  isOwner: boolean;
  permissions: readonly number[];
  status: UsersTable['status'];
}

export async function insertUser({ db }: Database, user: NewUser, now: number): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      account_id: user.accountId,
      username: user.username,
      email: user.email,
      phone: user.phone,
      password_hash: user.passwordHash,
      is_owner: user.isOwner ? 1 : 0,
      permissions: user.permissions.join(','),
      status: user.status,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findUser({ db }: Database, accountId: number, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'account_id', 'username', 'email', 'phone', 'is_owner', 'permissions', 'status'])
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .executeTakeFirst();
}
