import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * The account's default senders (`/config/categories/triggerSender|batchSender`): the trigger
 * and the batch API_USER the console's test send and the dashboard guide use. One row per
 * account, written on the first choice; deleting an API_USER clears the slot it held.
 */
export async function up(db: Kysely<unknown>, _context: MigrationContext): Promise<void> {
  await db.schema
    .createTable('api_user_senders')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('trigger_api_user_id', 'bigint', (c) => c.references('api_users.id').onDelete('set null'))
    .addColumn('batch_api_user_id', 'bigint', (c) => c.references('api_users.id').onDelete('set null'))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
