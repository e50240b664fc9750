import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Replies from handsets (issue 17): each mobile-originated message as a carrier delivered it,
 * attributed to an account by the extension after the carrier's service code (Herald sends from
 * code + account id) or, failing that, by the newest SMS that carrier took to the number; linked
 * to that SMS when there is one, and marked when it was an opt-out word.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('sms_replies')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint')
    .addColumn('sms_message_id', 'bigint')
    .addColumn('carrier_id', 'bigint', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('dest', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('opt_out', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sms_replies_account')
    .on('sms_replies')
    .columns(['account_id', 'received_at'])
    .execute();
}
