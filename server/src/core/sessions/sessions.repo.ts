import type { Database } from '../../db/database.ts';

export interface NewSession {
  tokenHash: string;
  accountId: number;
  userId: number;
  ip: string | null;
  userAgent: string | null;
  expiresAt: number;
}

export async function insertSession({ db }: Database, session: NewSession, now: number): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      token_hash: session.tokenHash,
      account_id: session.accountId,
      user_id: session.userId,
      ip: session.ip,
      user_agent: session.userAgent,
      created_at: now,
      last_seen_at: now,
      expires_at: session.expiresAt,
      revoked_at: null,
    })
    .execute();
}

/** The live session with this token hash, with its user's state and permissions. */
export async function findLiveSession({ db }: Database, tokenHash: string, now: number) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
    .select([
      'accounts.kind as account_kind',
      'sessions.id',
      'sessions.account_id',
      'sessions.user_id',
      'sessions.last_seen_at',
      'users.is_owner',
      'users.member_type',
      'users.status',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .executeTakeFirst();
}

export async function touchSession(
  { db }: Database,
  id: number,
  now: number,
  expiresAt: number,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_seen_at: now, expires_at: expiresAt })
    .where('id', '=', id)
    .execute();
}

export async function revokeSession({ db }: Database, tokenHash: string, now: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeUserSessions(
  { db }: Database,
  accountId: number,
  userId: number,
  now: number,
  keepTokenHash?: string,
): Promise<void> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keepTokenHash !== undefined) query = query.where('token_hash', '!=', keepTokenHash);
  await query.execute();
}
