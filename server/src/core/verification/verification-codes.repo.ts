import type { Database } from '../../db/database.ts';
import type { VerificationCodesTable } from '../../db/schema.ts';

export type CodeChannel = VerificationCodesTable['channel'];

export interface NewCode {
  purpose: string;
  channel: CodeChannel;
  target: string;
  codeHash: string;
  salt: string;
  expiresAt: number;
}

export async function insertCode({ db }: Database, code: NewCode, now: number): Promise<number> {
  const row = await db
    .insertInto('verification_codes')
    .values({
      purpose: code.purpose,
      channel: code.channel,
      target: code.target,
      code_hash: code.codeHash,
      salt: code.salt,
      created_at: now,
      expires_at: code.expiresAt,
      consumed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Codes sent to a target since `since`, of every purpose: what the send limits count. */
export async function listSendsSince({ db }: Database, channel: CodeChannel, target: string, since: number) {
  return db
    .selectFrom('verification_codes')
    .select(['id', 'created_at'])
    .where('channel', '=', channel)
    .where('target', '=', target)
    .where('created_at', '>', since)
    .execute();
}

export async function deleteCode({ db }: Database, id: number): Promise<void> {
  await db.deleteFrom('verification_codes').where('id', '=', id).execute();
}

/** Retires a target's other unused codes of a purpose, so only the newest one works. */
export async function retireOthers(
  { db }: Database,
  code: { purpose: string; channel: CodeChannel; target: string; keepId: number },
  now: number,
): Promise<void> {
  await db
    .updateTable('verification_codes')
    .set({ consumed_at: now })
    .where('purpose', '=', code.purpose)
    .where('channel', '=', code.channel)
    .where('target', '=', code.target)
    .where('id', '!=', code.keepId)
    .where('consumed_at', 'is', null)
    .execute();
}

export async function findLiveCode(
  { db }: Database,
  code: { purpose: string; channel: CodeChannel; target: string },
  now: number,
) {
  return db
    .selectFrom('verification_codes')
    .select(['id', 'code_hash', 'salt', 'attempts'])
    .where('purpose', '=', code.purpose)
    .where('channel', '=', code.channel)
    .where('target', '=', code.target)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Counts one check against the code; false when it has no attempts left or is used. */
export async function countAttempt({ db }: Database, id: number, maxAttempts: number): Promise<boolean> {
  const result = await db
    .updateTable('verification_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('attempts', '<', maxAttempts)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function consumeCode({ db }: Database, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('verification_codes')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteCodesBefore({ db }: Database, before: number): Promise<number> {
  const result = await db
    .deleteFrom('verification_codes')
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
