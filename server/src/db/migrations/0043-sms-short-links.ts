import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * SMS short links and their clicks (issue 17). A paid account that turns link tracking on gets
 * each link of a tracked template's SMS replaced by a short link of its own per recipient, so a
 * click names the number. Link ids are handed out in blocks (`sms_link_id_blocks`, one row), so a
 * short code (the id in base 62 and two signature characters) is known before the SMS is written
 * and never collides.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('sms_link_settings')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sms_link_id_blocks')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('next_id', 'bigint', (c) => c.notNull())
    .execute();
  await db
    .insertInto('sms_link_id_blocks' as never)
    .values({ id: 1, next_id: 1 } as never)
    .execute();
  await db.schema
    .createTable('sms_short_links')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('sms_id', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sms_link_clicks')
    .addColumn('id', ...id)
    .addColumn('link_id', 'bigint', (c) => c.notNull())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('machine', 'integer', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sms_link_clicks_account')
    .on('sms_link_clicks')
    .columns(['account_id', 'at'])
    .execute();
}
