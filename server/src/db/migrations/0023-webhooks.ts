import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Webhooks (issue 7): the configured receivers, an outbox of pushes filled by the `webhooks`
 * consumer of the mail event log in the transaction that advances its cursor, and the log of
 * every attempt. The outbox is claimed with leases like message_recipients, so several workers
 * push side by side and a dead worker's pushes are taken up again.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('api_user_id', 'bigint', (c) => c.notNull())
    .addColumn('app_key_sealed', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('last_success_at', 'bigint')
    .addColumn('last_failure_at', 'bigint')
    .addColumn('failing_since', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhooks_account_target_url')
    .on('webhooks')
    .columns(['account_id', 'api_user_id', 'url'])
    .unique()
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('webhook_id', 'bigint', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('event_id', 'bigint', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('event_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_webhook')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('webhook_id', 'bigint', (c) => c.notNull())
    .addColumn('delivery_id', 'bigint', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('request_body', 'text', (c) => c.notNull())
    .addColumn('response_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_attempts_webhook')
    .on('webhook_attempts')
    .columns(['webhook_id', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_attempts_delivery')
    .on('webhook_attempts')
    .columns(['delivery_id'])
    .execute();
}
