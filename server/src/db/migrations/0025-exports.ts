import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Offline data exports (issue 7).
 *
 * `data_export_offlines` is one export: what was asked (`type`, the filters as JSON, the time
 * range, the requester's language for the CSV header), where it stands (`status`, `progress`
 * 0–100, rows written, `error` of a failed run) and its file under the data directory (`file_path`
 * relative to it, `file_size`). `expires_at` is set when the file is complete (finished + 7 days);
 * the periodic task then deletes the file and marks the row expired.
 *
 * `accounts.hide_export` is the account's "hide delivery download buttons" flag
 * (`/systemParam/hideDeliveryDownloadButton`): off by default; when on, the console hides the
 * download buttons and the server refuses export downloads.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('data_export_offlines')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('filter', 'text', (c) => c.notNull())
    .addColumn('start_time', 'bigint', (c) => c.notNull())
    .addColumn('end_time', 'bigint', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('row_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('file_path', 'text')
    .addColumn('file_size', 'bigint')
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('expires_at', 'bigint')
    .addColumn('downloaded_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('data_export_offlines_account')
    .on('data_export_offlines')
    .columns(['account_id', 'id'])
    .execute();
  await db.schema
    .createIndex('data_export_offlines_expires')
    .on('data_export_offlines')
    .columns(['status', 'expires_at'])
    .execute();

  await db.schema
    .alterTable('accounts')
    .addColumn('hide_export', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
