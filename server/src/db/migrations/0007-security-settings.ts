import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Security settings (console-spec §7 "Security"): per-user verification choices and the Google
 * authenticator (its secret sealed, see core/security/secret-box.ts), the account's IP whitelist,
 * logins waiting for their second step, and on each session until when it counts as freshly
 * verified for sensitive operations and for downloads.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('sensitive_verified_until', 'bigint').execute();
  await db.schema.alterTable('sessions').addColumn('download_verified_until', 'bigint').execute();

  await db.schema
    .createTable('user_security_settings')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('login_verify', 'text', (c) => c.notNull().defaultTo('off'))
    .addColumn('login_verify_way', 'text', (c) => c.notNull().defaultTo('email'))
    .addColumn('download_verify', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sensitive_verify', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('totp_secret', 'text')
    .addColumn('totp_bound_at', 'bigint')
    .addColumn('totp_last_step', 'bigint')
    .addColumn('totp_pending', 'text')
    .addColumn('totp_pending_expires_at', 'bigint')
    .addColumn('protected_login_ack_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_security_settings_account')
    .on('user_security_settings')
    .columns(['account_id'])
    .execute();

  await db.schema
    .createTable('account_ip_whitelists')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('entries', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('pending_logins')
    .addColumn('id', ...id)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('login_name', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('pending_logins_expiry').on('pending_logins').columns(['expires_at']).execute();

  // "New IP" login verification asks whether the user ever logged in from an address.
  await db.schema
    .createIndex('login_events_user_ip')
    .on('login_events')
    .columns(['user_id', 'ip', 'result'])
    .execute();
}
