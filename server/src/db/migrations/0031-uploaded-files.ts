import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Files customers upload for SMS compliance (issue 20): signature licences, ID documents and
 * attachments, and the SMS filing's commitment book. Kept in the database, beside the rows that
 * name them, so a backup or a second API process has them too; each is at most 2 MB. A file is
 * uploaded first and named by a signature or filing afterwards: `attached_to` says which
 * (`sms_sign:<id>`, `sms_filing:<id>`); unattached ones are cleared after a day.
 */
export async function up(db: Kysely<unknown>, { id, dialect }: MigrationContext): Promise<void> {
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  await db.schema
    .createTable('uploaded_files')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content', blob, (c) => c.notNull())
    .addColumn('attached_to', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('uploaded_files_account')
    .on('uploaded_files')
    .columns(['account_id', 'attached_to'])
    .execute();
}
