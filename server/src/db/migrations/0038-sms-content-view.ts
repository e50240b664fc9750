import type { Kysely } from 'kysely';

/**
 * The SMS content view switch (issue 20, `/s_sendSetting/smsContent`): one row per account that
 * set it, absent meaning off. A row of its own rather than a column on accounts, as the SMS link
 * tracking switch is: the accounts table stays free of per-feature flags, and turning it off keeps
 * when it was changed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sms_content_settings')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
