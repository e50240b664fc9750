import type { Database } from '../../db/database.ts';

export interface NewPendingLogin {
  tokenHash: string;
  accountId: number;
  userId: number;
  loginName: string;
  ip: string | null;
  userAgent: string | null;
  expiresAt: number;
}

export async function insertPendingLogin(
  { db }: Database,
  login: NewPendingLogin,
  now: number,
): Promise<void> {
  await db
    .insertInto('pending_logins')
    .values({
      token_hash: login.tokenHash,
      account_id: login.accountId,
      user_id: login.userId,
      login_name: login.loginName.slice(0, 254),
      ip: login.ip,
      user_agent: login.userAgent?.slice(0, 512) ?? null,
      created_at: now,
      expires_at: login.expiresAt,
      used_at: null,
    })
    .execute();
}

/** The unused, unexpired pending login with this token hash. */
export async function findPendingLogin({ db }: Database, tokenHash: string, now: number) {
  return db
    .selectFrom('pending_logins')
    .select(['id', 'account_id', 'user_id', 'login_name', 'ip', 'user_agent', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Spends the pending login; false when another request spent it first. */
export async function usePendingLogin({ db }: Database, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('pending_logins')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deletePendingLoginsBefore({ db }: Database, before: number): Promise<void> {
  await db.deleteFrom('pending_logins').where('expires_at', '<', before).execute();
}

/** Whether the user ever completed a login from this address (what "new IP" is measured against). */
export async function hasLoggedInFrom(
  { db }: Database,
  accountId: number,
  userId: number,
  ip: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('login_events')
    .select('id')
    .where('user_id', '=', userId)
    .where('account_id', '=', accountId)
    .where('ip', '=', ip)
    .where('result', '=', 'success')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
