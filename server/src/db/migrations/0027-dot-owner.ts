import type { Kysely } from 'kysely';

/**
 * The worker that set a recipient's dot mark (`dot_owner`), beside the mark itself: a worker
 * that finds the mark of a dead one asks that worker's dot journal (mta/pipeline/dot-journal.ts)
 * whether the final dot was written, when the journal is on its machine.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('message_recipients').addColumn('dot_owner', 'text').execute();
}
