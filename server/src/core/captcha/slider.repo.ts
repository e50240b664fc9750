import type { Database } from '../../db/database.ts';

export async function insertChallenge(
  { db }: Database,
  challenge: { id: string; x: number; expiresAt: number },
  now: number,
): Promise<void> {
  await db
    .insertInto('slider_challenges')
    .values({
      id: challenge.id,
      x: challenge.x,
      created_at: now,
      expires_at: challenge.expiresAt,
      used_at: null,
      pass_hash: null,
      pass_expires_at: null,
      pass_used_at: null,
    })
    .execute();
}

export async function findChallenge({ db }: Database, id: string) {
  return db.selectFrom('slider_challenges').select(['id', 'x']).where('id', '=', id).executeTakeFirst();
}

/** Marks a live challenge used; false when it was already tried or has expired. */
export async function useChallenge({ db }: Database, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('slider_challenges')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setPass(
  { db }: Database,
  id: string,
  pass: { hash: string; expiresAt: number },
): Promise<void> {
  await db
    .updateTable('slider_challenges')
    .set({ pass_hash: pass.hash, pass_expires_at: pass.expiresAt })
    .where('id', '=', id)
    .execute();
}

/** Uses a live pass token once; false when unknown, used or expired. */
export async function usePass({ db }: Database, passHash: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('slider_challenges')
    .set({ pass_used_at: now })
    .where('pass_hash', '=', passHash)
    .where('pass_used_at', 'is', null)
    .where('pass_expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes challenges that expired before `before`; returns how many. */
export async function deleteExpiredChallenges({ db }: Database, before: number): Promise<number> {
  const result = await db.deleteFrom('slider_challenges').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
