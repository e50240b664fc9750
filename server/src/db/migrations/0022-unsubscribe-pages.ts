import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Unsubscribe pages (issue 7). `unsubscribe_pages` holds the account's designs: a unique name and
 * the JSON the shared schema parsed (colours, logo, language, reasons, jump URL).
 * `unsubscribe_page_choices` says which design the account uses (`api_user_id` 0) or one API_USER
 * uses instead; no row means the built-in page. Deleting a design drops its choices with it, so
 * their mail falls back to the account's choice or the built-in page.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('unsubscribe_pages')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('unsubscribe_pages_name', ['account_id', 'name'])
    .execute();

  await db.schema
    .createTable('unsubscribe_page_choices')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('api_user_id', 'bigint', (c) => c.notNull())
    .addColumn('page_id', 'bigint', (c) => c.notNull().references('unsubscribe_pages.id').onDelete('cascade'))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('unsubscribe_page_choices_pk', ['account_id', 'api_user_id'])
    .execute();
}
