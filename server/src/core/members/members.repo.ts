import type { Database } from '../../db/database.ts';
import type { UsersTable } from '../../db/schema.ts';

/** Teammates are the account's users that are not its owner; every query is scoped to the account. */
function members({ db }: Database, accountId: number) {
  return db
    .selectFrom('users')
    .select((eb) => [
      'users.id',
      'users.account_id',
      'users.username',
      'users.display_name',
      'users.email',
      'users.is_owner',
      'users.member_type',
      'users.member_roles',
      'users.status',
      'users.created_at',
      eb
        .selectFrom('login_events')
        .select((e) => e.fn.max('login_events.created_at').as('t'))
        .where('login_events.account_id', '=', accountId)
        .whereRef('login_events.user_id', '=', 'users.id')
        .where('login_events.result', '=', 'success')
        .as('last_login_at'),
    ])
    .where('users.account_id', '=', accountId)
    .where('users.is_owner', '=', 0);
}

export type MemberRow = NonNullable<Awaited<ReturnType<typeof findMember>>>;

export async function listMembers(database: Database, accountId: number) {
  return members(database, accountId).orderBy('users.created_at').orderBy('users.id').execute();
}

export async function findMember(database: Database, accountId: number, userId: number) {
  return members(database, accountId).where('users.id', '=', userId).executeTakeFirst();
}

export async function countMembers({ db }: Database, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('is_owner', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Takes the account row's write lock for the rest of the transaction, so two invitations racing
 * for the last free seat are counted one after the other (on both SQLite and PostgreSQL).
 */
export async function lockAccount({ db }: Database, accountId: number, now: number): Promise<void> {
  await db.updateTable('accounts').set({ updated_at: now }).where('id', '=', accountId).execute();
}

export async function updateMember(
  { db }: Database,
  accountId: number,
  userId: number,
  patch: {
    displayName?: string | undefined;
    type?: NonNullable<UsersTable['member_type']>;
    roles?: readonly string[];
  },
  now: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      updated_at: now,
      ...(patch.displayName === undefined ? {} : { display_name: patch.displayName }),
      ...(patch.type === undefined ? {} : { member_type: patch.type }),
      ...(patch.roles === undefined ? {} : { member_roles: patch.roles.join(',') }),
    })
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .where('is_owner', '=', 0)
    .execute();
}

/** Deletes the member; their sessions, tokens and levels go with them (foreign keys cascade). */
export async function deleteMember({ db }: Database, accountId: number, userId: number): Promise<void> {
  await db
    .deleteFrom('users')
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .where('is_owner', '=', 0)
    .execute();
}

/** The invitee's chosen login name and password; only while the invitation is pending. */
export async function acceptInvite(
  { db }: Database,
  accountId: number,
  userId: number,
  login: { username: string; passwordHash: string },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ username: login.username, password_hash: login.passwordHash, status: 'active', updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .where('is_owner', '=', 0)
    .where('status', '=', 'inactive')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Who is shown as inviting: the inviter when still there, else the account's owner. */
export async function findInvitation({ db }: Database, accountId: number, userId: number) {
  return db
    .selectFrom('users as member')
    .innerJoin('accounts', 'accounts.id', 'member.account_id')
    .leftJoin('users as inviter', (join) =>
      join
        .onRef('inviter.id', '=', 'member.invited_by')
        .onRef('inviter.account_id', '=', 'member.account_id'),
    )
    .leftJoin('users as owner', (join) =>
      join.onRef('owner.account_id', '=', 'member.account_id').on('owner.is_owner', '=', 1),
    )
    .select([
      'member.email',
      'member.display_name',
      'member.status',
      'accounts.username as account_name',
      'inviter.username as inviter_username',
      'inviter.display_name as inviter_display_name',
      'owner.username as owner_username',
    ])
    .where('member.account_id', '=', accountId)
    .where('member.id', '=', userId)
    .where('member.is_owner', '=', 0)
    .executeTakeFirst();
}
