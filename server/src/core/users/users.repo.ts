import type { Database } from '../../db/database.ts';
import type { UsersTable } from '../../db/schema.ts';

export interface NewUser {
  accountId: number;
  username: string;
  email: string;
  phone: string | null;
  passwordHash: string | null;
  isOwner: boolean;
  status: UsersTable['status'];
  /** A member's type, name, presets and inviter; an owner has none. */
  member?: {
    type: NonNullable<UsersTable['member_type']>;
    displayName?: string | null;
    roles?: readonly string[];
    invitedBy?: number | null;
  };
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
      member_type: user.member?.type ?? null,
      display_name: user.member?.displayName ?? null,
      member_roles: user.member?.roles?.join(',') ?? '',
      invited_by: user.member?.invitedBy ?? null,
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
    .select(['id', 'account_id', 'username', 'email', 'phone', 'is_owner', 'member_type', 'status'])
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .executeTakeFirst();
}

/**
 * By user name, or by email (case-insensitive). A teammate whose invitation is pending (an
 * inactive member) has no login yet: login, password reset and activation mail skip them, so the
 * invitation link is the one way in.
 */
export async function findByLoginName({ db }: Database, loginName: string) {
  const name = loginName.trim();
  return db
    .selectFrom('users')
    .select(['id', 'account_id', 'username', 'password_hash', 'status'])
    .where((eb) => eb.or([eb('username', '=', name), eb(eb.fn('lower', ['email']), '=', name.toLowerCase())]))
    .where((eb) => eb.or([eb('is_owner', '=', 1), eb('status', '!=', 'inactive')]))
    .executeTakeFirst();
}

export async function setPassword(
  { db }: Database,
  accountId: number,
  userId: number,
  passwordHash: string,
  now: number,
) {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .execute();
}

export async function setStatus(
  { db }: Database,
  accountId: number,
  userId: number,
  status: UsersTable['status'],
  now: number,
) {
  await db
    .updateTable('users')
    .set({ status, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .execute();
}

export async function isUserNameTaken({ db }: Database, username: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  return row !== undefined;
}

export async function isEmailTaken({ db }: Database, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
  return row !== undefined;
}

export async function isPhoneTaken({ db }: Database, phone: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('phone', '=', phone).executeTakeFirst();
  return row !== undefined;
}

export async function findUserForMail({ db }: Database, accountId: number, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'account_id', 'username', 'email', 'status', 'password_hash'])
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .executeTakeFirst();
}
