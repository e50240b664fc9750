import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * MMS content for the carrier (issue 20). A message row keeps its filled page texts
 * (`mms_texts`, small, per recipient) and points at the template's pages with their media as they
 * were when it was accepted (`sms_mms_bodies`, written once per account and content digest), so
 * 2,000 numbers of one call share one copy of 100 KB of media, and an edit of the template after
 * the call changes nothing already accepted.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('sms_mms_bodies')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('pages', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('sms_mms_bodies_account_digest', ['account_id', 'digest'])
    .execute();
  await db.schema.alterTable('sms_messages').addColumn('mms_body_id', 'bigint').execute();
  await db.schema.alterTable('sms_messages').addColumn('mms_texts', 'text').execute();
}
