import type { Database } from '../../db/database.ts';
import type { SessionCaller } from '../context.ts';

export type VerificationColumn = 'sensitive_verified_until' | 'download_verified_until';

/** Marks the caller's live session as verified until `until`; false when it is not live. */
export async function markVerified(
  { db }: Database,
  session: SessionCaller,
  column: VerificationColumn,
  until: number,
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set(
      column === 'sensitive_verified_until'
        ? { sensitive_verified_until: until }
        : { download_verified_until: until },
    )
    .where('account_id', '=', session.accountId)
    .where('user_id', '=', session.userId)
    .where('token_hash', '=', session.sessionHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findVerification({ db }: Database, session: SessionCaller) {
  return db
    .selectFrom('sessions')
    .select(['sensitive_verified_until', 'download_verified_until'])
    .where('account_id', '=', session.accountId)
    .where('user_id', '=', session.userId)
    .where('token_hash', '=', session.sessionHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}
