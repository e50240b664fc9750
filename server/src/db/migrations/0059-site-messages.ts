import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * The message centre's records (core/site-messages): what Herald tells an account about its own
 * objects and money (a review decided, the balance running low). `kind` names the wording in the
 * shared catalogue, `params` its JSON parameters; the text is worded when read, in the reader's
 * language. `read_at` is null until the account reads it.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('site_messages')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('read_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('site_messages_account')
    .on('site_messages')
    .columns(['account_id', 'id'])
    .execute();
  await db.schema
    .createIndex('site_messages_unread')
    .on('site_messages')
    .columns(['account_id', 'read_at'])
    .execute();
}
