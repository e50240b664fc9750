import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * What an account sets up before it sends (issue 5): its plan and daily quota, sending domains with their DNS checks and
 * DKIM keys, API_USERs with their keys, labels and email templates.
 *
 * A domain keeps one status/found/error triple per record, so the console can say which record
 * fails and why without recomputing. The DKIM private key is sealed with the secret box. An
 * API_USER's keys live in their own table so a reset can leave the old key valid for a while
 * beside the new one; only a SHA-256 of a key is stored (keys are 32 random bytes, so a slow hash
 * adds nothing but cost on every send). API_USER names are unique across the platform because the
 * name is what a client authenticates with.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  // Plan gating (free or paid) and the account's own daily mail quota (null: the plan's default).
  await db.schema
    .alterTable('accounts')
    .addColumn('plan', 'text', (c) => c.notNull().defaultTo('free'))
    .execute();
  await db.schema.alterTable('accounts').addColumn('daily_quota', 'integer').execute();

  let domains = db.schema
    .createTable('sending_domains')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('ip_type', 'text', (c) => c.notNull().defaultTo('shared'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('unverified'))
    .addColumn('dkim_selector', 'text', (c) => c.notNull())
    .addColumn('dkim_public_key', 'text', (c) => c.notNull())
    .addColumn('dkim_private_key_sealed', 'text', (c) => c.notNull())
    .addColumn('verify_key', 'text', (c) => c.notNull());
  for (const record of ['spf', 'dkim', 'mx', 'dmarc']) {
    domains = domains
      .addColumn(`${record}_status`, 'text', (c) => c.notNull().defaultTo('pending'))
      .addColumn(`${record}_found`, 'text')
      .addColumn(`${record}_error`, 'text');
  }
  await domains
    .addColumn('checked_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('sending_domains_account_name', ['account_id', 'name'])
    .execute();
  await db.schema
    .createIndex('sending_domains_checked')
    .on('sending_domains')
    .columns(['checked_at'])
    .execute();

  await db.schema
    .createTable('labels')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('labels_account_name', ['account_id', 'name'])
    .execute();

  await db.schema
    .createTable('api_users')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('email_type', 'text', (c) => c.notNull())
    .addColumn('c_type', 'text', (c) => c.notNull().defaultTo('normal'))
    .addColumn('domain_id', 'bigint', (c) => c.references('sending_domains.id').onDelete('set null'))
    .addColumn('label_id', 'bigint', (c) => c.references('labels.id').onDelete('set null'))
    .addColumn('open_tracking', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('click_tracking', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('unsubscribe_tracking', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('api_users_account').on('api_users').columns(['account_id']).execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('api_user_id', 'bigint', (c) => c.notNull().references('api_users.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_hint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_api_user').on('api_keys').columns(['api_user_id']).execute();

  await db.schema
    .createTable('email_templates')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('invoke_name', 'text', (c) => c.notNull())
    .addColumn('template_type', 'text', (c) => c.notNull())
    .addColumn('editor', 'text', (c) => c.notNull().defaultTo('richtext'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('summary', 'text')
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('plain', 'text')
    .addColumn('design', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('unsubmitted'))
    .addColumn('reject_reason', 'text')
    .addColumn('submitted_at', 'bigint')
    .addColumn('reviewed_at', 'bigint')
    .addColumn('reviewed_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('last_used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('email_templates_account_invoke', ['account_id', 'invoke_name'])
    .execute();
  await db.schema
    .createIndex('email_templates_status')
    .on('email_templates')
    .columns(['status', 'submitted_at'])
    .execute();
}
