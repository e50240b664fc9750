import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Email subscriptions (issue 21): a customer's sign-up form, linked to one of its address lists,
 * and each sign-up made on it. A deleted subscription keeps its row with `deleted_at`, so its
 * public page and snippet can say it is no longer available instead of "not found". A sign-up row
 * is the record of consent: when and from where the address was given and when its confirmation
 * link was used; the link itself carries the sign-up's id, signed, so no token is stored.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('subscriptions')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('public_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('logo_url', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('from_name', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('api_user_id', 'bigint', (c) => c.notNull())
    .addColumn('list_id', 'bigint', (c) => c.notNull())
    .addColumn('confirm', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('display_mode', 'text', (c) => c.notNull())
    .addColumn('theme_color', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('subscriptions_public')
    .on('subscriptions')
    .column('public_id')
    .unique()
    .execute();
  await db.schema
    .createIndex('subscriptions_account')
    .on('subscriptions')
    .columns(['account_id', 'id'])
    .execute();

  await db.schema
    .createTable('subscription_signups')
    .addColumn('id', ...id)
    .addColumn('subscription_id', 'bigint', (c) => c.notNull())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('confirmed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('subscription_signups_address')
    .on('subscription_signups')
    .columns(['subscription_id', 'address', 'id'])
    .execute();
}
