import type { Kysely } from 'kysely';

/**
 * Voice codes as calls (issue 20): a voice message keeps its code, the digits its call reads out
 * (`sendVoice`'s `code`, a voice template's `%code%`). Its text is only what the call stands
 * for, with a signature and words around the digits, so the code cannot be read back from it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sms_messages').addColumn('voice_code', 'text').execute();
}
