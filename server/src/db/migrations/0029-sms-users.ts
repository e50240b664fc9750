import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * SMS_USERs and their SMS_KEYs (issue 20): as api_users and api_keys, without edit or delete.
 * A name is unique across the platform (it names the sender in every SMS API call); a key is
 * stored as its SHA-256 and its last four characters; `expires_at` is set when a reset leaves the
 * old key working a while beside the new one.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('sms_users')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('c_type', 'text', (c) => c.notNull().defaultTo('normal'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sms_users_account').on('sms_users').columns(['account_id']).execute();

  await db.schema
    .createTable('sms_keys')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('sms_user_id', 'bigint', (c) => c.notNull().references('sms_users.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_hint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .execute();
  await db.schema.createIndex('sms_keys_sms_user').on('sms_keys').columns(['sms_user_id']).execute();
}
