import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Sender configurations and queue pauses (issue 6).
 *
 * `sender_config_entries` holds every configured entry, one row each: a fixed from per receiving
 * domain (`entry_key` = the domain, `*` for all), the fixed mail_from, the AD mark, a TLS receiver
 * domain (key = the domain), a do-not-disturb window (key = its cycle, days and times, so the same
 * window cannot be added twice), the bounce settings. `settings` is the JSON the shared schema
 * parsed. `sender_config_switches` is the on/off state of each kind (`/sendConfig/status`); a kind
 * without a row is on, except `intercept`, whose switch is the whole setting and defaults to off.
 *
 * `queue_pauses` are suspended queues: conditions (API_USER, sending domain, label; null = all),
 * the time span [starts_at, recover_at), and for a pause with no recover time `expires_at`, when
 * the periodic task deletes it (HERALD_QUEUE_PAUSE_MAX_DAYS).
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('sender_config_switches')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('sender_config_switches_pk', ['account_id', 'kind'])
    .execute();

  await db.schema
    .createTable('sender_config_entries')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('entry_key', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('sender_config_entries_key', ['account_id', 'kind', 'entry_key'])
    .execute();

  await db.schema
    .createTable('queue_pauses')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('api_user_id', 'bigint', (c) => c.references('api_users.id').onDelete('cascade'))
    .addColumn('domain', 'text')
    .addColumn('label_id', 'bigint', (c) => c.references('labels.id').onDelete('cascade'))
    .addColumn('starts_at', 'bigint', (c) => c.notNull())
    .addColumn('recover_at', 'bigint')
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('queue_pauses_account').on('queue_pauses').columns(['account_id']).execute();
  await db.schema.createIndex('queue_pauses_expires').on('queue_pauses').columns(['expires_at']).execute();
}
