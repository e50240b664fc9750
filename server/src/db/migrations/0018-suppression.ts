import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Suppression (issue 6): who mail must not go to.
 *
 * - `suppression_global_invalid`: addresses that do not exist, for every account (reference §10):
 *   seen n times, blocked until last seen + 2^n hours, at most 30 days. One row per address.
 * - `suppression_entries`: the account's lists, one table with a `list` column (bounce,
 *   unsubscribe, spam, user_defined) so check() is one indexed lookup by (account_id, address).
 *   Unsubscribes may be scoped to an API_USER and/or a label (0 = every one: a plain integer, not a
 *   foreign key, so the unique key works alike on both dialects). `expires_at` null = permanent.
 * - `suppression_releases`: an account deleting a bounce entry releases the address for itself
 *   from the global list as last seen then; another account stays protected.
 * - `intercept_rules`: custom interception (address, domain or keyword; per API_USER or all).
 *
 * Also two indexes the email status view needs on message_recipients (by account and time, by
 * account and address).
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('suppression_global_invalid')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('times_seen', 'integer', (c) => c.notNull())
    .addColumn('blocked_until', 'bigint', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('suppression_entries')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('list', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('api_user_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('label_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('suppression_entries_key', [
      'account_id',
      'address',
      'list',
      'api_user_id',
      'label_id',
    ])
    .execute();
  await db.schema
    .createIndex('suppression_entries_list')
    .on('suppression_entries')
    .columns(['account_id', 'list', 'created_at'])
    .execute();

  await db.schema
    .createTable('suppression_releases')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('released_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('suppression_releases_pk', ['account_id', 'address'])
    .execute();

  await db.schema
    .createTable('intercept_rules')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('api_user_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('intercept_rules_key', ['account_id', 'api_user_id', 'type', 'value'])
    .execute();

  await db.schema
    .createIndex('message_recipients_account_created')
    .on('message_recipients')
    .columns(['account_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('message_recipients_account_recipient')
    .on('message_recipients')
    .columns(['account_id', 'recipient', 'created_at'])
    .execute();
}
