import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Tracking (issue 7).
 *
 * `tracking_domains`: an account's custom tracking hosts (at most five), each a CNAME to the
 * platform's tracking host, verified through the configured resolver; one may be the default,
 * whose host then carries the open pixel and click links of the account's mail. Names are unique
 * across the platform: a tracking request is served for whoever's host it arrives on.
 *
 * `ssl_certificates`: the HTTPS certificate of a tracking domain (PEM certificate, private key
 * sealed with the secret box), picked by SNI on the tracking HTTPS listener.
 *
 * `recipient_tracks`: when a recipient first opened and first clicked its message (by a person,
 * not a scanner). The update that fills a NULL column is what makes a hit the first one, so two
 * concurrent hits cannot both be counted as unique.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('tracking_domains')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('open_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('click_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('unsubscribe_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('unverified'))
    .addColumn('cname_found', 'text')
    .addColumn('check_error', 'text')
    .addColumn('checked_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tracking_domains_account')
    .on('tracking_domains')
    .columns(['account_id'])
    .execute();

  await db.schema
    .createTable('ssl_certificates')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('domain', 'text', (c) => c.notNull().unique())
    .addColumn('certificate', 'text', (c) => c.notNull())
    .addColumn('private_key_sealed', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('valid_from', 'bigint', (c) => c.notNull())
    .addColumn('valid_to', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ssl_certificates_account')
    .on('ssl_certificates')
    .columns(['account_id'])
    .execute();

  await db.schema
    .createTable('recipient_tracks')
    .addColumn('recipient_id', 'bigint', (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('first_open_at', 'bigint')
    .addColumn('first_click_at', 'bigint')
    .execute();
}
