import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * SMSHook (issue 20): SMS receivers live beside email webhooks, in the same table, outbox and
 * dispatcher, told apart by `channel`. For an SMS hook `api_user_id` holds the SMS_USER listened
 * to (0 for all); the unique target now includes the channel.
 */
export async function up(db: Kysely<unknown>, _context: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('webhooks')
    .addColumn('channel', 'text', (c) => c.notNull().defaultTo('mail'))
    .execute();
  await db.schema.dropIndex('webhooks_account_target_url').execute();
  await db.schema
    .createIndex('webhooks_account_target_url')
    .on('webhooks')
    .columns(['account_id', 'channel', 'api_user_id', 'url'])
    .unique()
    .execute();
}
