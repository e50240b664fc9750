import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * SMS interception (issue 20): numbers SMS must not go to, per account (`account_id`) or for the
 * whole platform (`account_id` 0), as blocks (420 local, 410 global) or unsubscribes (430), added
 * by hand or from carrier results with an expiry (reference §11); and keywords an account's SMS
 * must not contain (440).
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('sms_blocks')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sms_blocks_target')
    .on('sms_blocks')
    .columns(['account_id', 'kind', 'phone'])
    .unique()
    .execute();
  await db.schema.createIndex('sms_blocks_phone').on('sms_blocks').columns(['phone']).execute();

  await db.schema
    .createTable('sms_keywords')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('keyword', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sms_keywords_account_keyword')
    .on('sms_keywords')
    .columns(['account_id', 'keyword'])
    .unique()
    .execute();
}
