import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Email address lists (issue 21): lists called by an alias on the platform's list domain, their
 * members (an address, a name, up to 10 variables) and the file imports that fill them.
 *
 * The same design as the SMS contact lists (0040): an import writes its rows under its own id
 * while `address_lists.pending_import_id` names it, so every read leaves them out until the
 * import commits in one short transaction, or they are deleted in batches; members have no
 * foreign key to their list, so deleting a list is one row and its members are purged in batches
 * afterwards. The alias's prefix is unique on the platform (it is one address of one domain),
 * kept lower-cased; a member's address is kept lower-cased, once per list.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('address_lists')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('member_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('var_names', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('pending_import_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('address_lists_prefix').on('address_lists').column('prefix').unique().execute();
  await db.schema
    .createIndex('address_lists_account')
    .on('address_lists')
    .columns(['account_id', 'id'])
    .execute();

  await db.schema
    .createTable('address_list_members')
    .addColumn('id', ...id)
    .addColumn('list_id', 'bigint', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('vars', 'text')
    .addColumn('import_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('address_list_members_address')
    .on('address_list_members')
    .columns(['list_id', 'address'])
    .unique()
    .execute();
  await db.schema
    .createIndex('address_list_members_import')
    .on('address_list_members')
    .column('import_id')
    .execute();

  await db.schema
    .createTable('address_list_imports')
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
    .createIndex('address_list_imports_list')
    .on('address_list_imports')
    .columns(['list_id', 'id'])
    .execute();
}
