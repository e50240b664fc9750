import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Message settings (core/site-messages): per category, whether an account's messages are also
 * mailed and texted (`message_settings`; no row is the default), and to whom
 * (`message_notifiers`, at most 3 email addresses and 3 phones). `site_messages.notified_at` is
 * set when the notice task has claimed a message; `notice_sms` keeps one row per SMS notice sent
 * (a message to a phone once; the monthly count and the charge's key come from it).
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('message_settings')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('email', 'integer', (c) => c.notNull())
    .addColumn('sms', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_settings_pk', ['account_id', 'category'])
    .execute();
  await db.schema
    .createTable('message_notifiers')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('message_notifiers_address', ['account_id', 'kind', 'address'])
    .execute();
  await db.schema.alterTable('site_messages').addColumn('notified_at', 'bigint').execute();
  await db.schema
    .createIndex('site_messages_to_notify')
    .on('site_messages')
    .columns(['notified_at', 'id'])
    .execute();
  await db.schema
    .createTable('notice_sms')
    .addColumn('message_id', 'bigint', (c) => c.notNull().references('site_messages.id').onDelete('cascade'))
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('notice_sms_pk', ['message_id', 'phone'])
    .execute();
  await db.schema.createIndex('notice_sms_month').on('notice_sms').columns(['account_id', 'month']).execute();
}
