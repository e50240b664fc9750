import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * SMS contact lists (issue 17): lists of phones, their members, and the file imports that fill
 * them.
 *
 * An import writes its rows under its own id while `sms_contact_lists.pending_import_id` names
 * it: every read leaves those rows out, so the list shows exactly what it held before until the
 * import commits (one short transaction that adds the count and clears the mark) or is rolled
 * back (its rows deleted in batches, then the mark cleared). Members have no foreign key to
 * their list: deleting a list is one row, and its members are purged in batches afterwards, so
 * no single write holds the database for a million rows.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('sms_contact_lists')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('member_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('var_names', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('pending_import_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('sms_contact_lists_name')
    .on('sms_contact_lists')
    .columns(['account_id', 'name'])
    .unique()
    .execute();

  await db.schema
    .createTable('sms_contact_members')
    .addColumn('id', ...id)
    .addColumn('list_id', 'bigint', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('vars', 'text')
    .addColumn('import_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sms_contact_members_phone')
    .on('sms_contact_members')
    .columns(['list_id', 'phone'])
    .unique()
    .execute();
  await db.schema
    .createIndex('sms_contact_members_import')
    .on('sms_contact_members')
    .column('import_id')
    .execute();

  await db.schema
    .createTable('sms_contact_imports')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('list_id', 'bigint', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('file_path', 'text', (c) => c.notNull())
    .addColumn('report_path', 'text')
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('bytes_total', 'bigint', (c) => c.notNull())
    .addColumn('bytes_read', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('lines_read', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('added', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('duplicates', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('invalid', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('error_code', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('sms_contact_imports_list')
    .on('sms_contact_imports')
    .columns(['list_id', 'id'])
    .execute();
}
