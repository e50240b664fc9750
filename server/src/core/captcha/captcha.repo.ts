import type { Database } from '../../db/database.ts';

export async function insertCaptcha(
  { db }: Database,
  captcha: { id: string; purpose: string; answerHash: string; expiresAt: number },
  now: number,
): Promise<void> {
  await db
    .insertInto('captchas')
    .values({
      id: captcha.id,
      purpose: captcha.purpose,
      answer_hash: captcha.answerHash,
      created_at: now,
      expires_at: captcha.expiresAt,
      used_at: null,
    })
    .execute();
}

export async function findCaptcha({ db }: Database, id: string) {
  return db
    .selectFrom('captchas')
    .select(['id', 'purpose', 'answer_hash'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Marks a live captcha used; false when it was already used or has expired. */
export async function useCaptcha({ db }: Database, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('captchas')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes captchas that expired before `before`; returns how many. */
export async function deleteExpiredCaptchas({ db }: Database, before: number): Promise<number> {
  const result = await db.deleteFrom('captchas').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
