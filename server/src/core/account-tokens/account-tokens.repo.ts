import type { Database } from '../../db/database.ts';
import type { AccountTokensTable } from '../../db/schema.ts';

export type TokenPurpose = AccountTokensTable['purpose'];

export async function insertToken(
  { db }: Database,
  token: { tokenHash: string; accountId: number; userId: number; purpose: TokenPurpose; expiresAt: number },
  now: number,
): Promise<void> {
  await db
    .insertInto('account_tokens')
    .values({
      token_hash: token.tokenHash,
      account_id: token.accountId,
      user_id: token.userId,
      purpose: token.purpose,
      created_at: now,
      expires_at: token.expiresAt,
      used_at: null,
    })
    .execute();
}

/** Marks the token used if it is live; returns whose it was. Single use even under races. */
export async function consumeToken({ db }: Database, tokenHash: string, purpose: TokenPurpose, now: number) {
  return db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['account_id', 'user_id'])
    .executeTakeFirst();
}

/** Whose the token is while it is live, without using it up. */
export async function findLiveToken({ db }: Database, tokenHash: string, purpose: TokenPurpose, now: number) {
  return db
    .selectFrom('account_tokens')
    .select(['account_id', 'user_id'])
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Earlier live tokens of the same purpose stop working when a new one is issued. */
export async function retireTokens(
  { db }: Database,
  accountId: number,
  userId: number,
  purpose: TokenPurpose,
  now: number,
) {
  await db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}
