import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Customer SMS (issue 20): the carriers the operator connects and the routes to them, and the
 * messages themselves.
 *
 * `sms_messages` is the durable SMS queue, as message_recipients is for email: one row per
 * number, written in the transaction that accepts the request, before the API answers; the SMS
 * worker claims rows by (status, due_at) under a lease. `sms_carrier_ids` maps each carrier message
 * id of a submitted part back to its row, so a receipt finds its message whatever the carrier's
 * id looks like. `sms_send_requests` remembers a client's sendRequestId for an hour, with the
 * answer given, so a repeated call gets the same smsIds and sends nothing twice.
 * `sms_events` is the SMS event log (request, deliver, workererror, delivererror) the hooks,
 * statistics and status screens read.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('sms_carriers')
    .addColumn('id', ...id)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('system_id', 'text', (c) => c.notNull())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('source_addr', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('per_second', 'integer', (c) => c.notNull().defaultTo(100))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sms_routes')
    .addColumn('id', ...id)
    .addColumn('carrier_id', 'bigint', (c) => c.notNull().references('sms_carriers.id').onDelete('cascade'))
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('*'))
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sms_messages')
    .addColumn('id', ...id)
    .addColumn('sms_id', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('sms_user_id', 'bigint', (c) => c.references('sms_users.id').onDelete('set null'))
    .addColumn('template_id', 'bigint')
    .addColumn('label_id', 'bigint')
    .addColumn('msg_type', 'integer', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('price_class', 'text', (c) => c.notNull())
    .addColumn('parts', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('tag', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('carrier_id', 'bigint')
    .addColumn('tried_carriers', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('parts_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('due_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    .addColumn('submitted_at', 'bigint')
    .addColumn('done_at', 'bigint')
    .execute();
  await db.schema.createIndex('sms_messages_due').on('sms_messages').columns(['status', 'due_at']).execute();
  await db.schema
    .createIndex('sms_messages_account_requested')
    .on('sms_messages')
    .columns(['account_id', 'requested_at'])
    .execute();
  await db.schema
    .createIndex('sms_messages_phone_requested')
    .on('sms_messages')
    .columns(['phone', 'requested_at'])
    .execute();

  await db.schema
    .createTable('sms_carrier_ids')
    .addColumn('carrier_id', 'bigint', (c) => c.notNull())
    .addColumn('carrier_message_id', 'text', (c) => c.notNull())
    .addColumn('sms_message_id', 'bigint', (c) =>
      c.notNull().references('sms_messages.id').onDelete('cascade'),
    )
    .addColumn('final', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('sms_carrier_ids_pk', ['carrier_id', 'carrier_message_id'])
    .execute();
  await db.schema
    .createIndex('sms_carrier_ids_message')
    .on('sms_carrier_ids')
    .columns(['sms_message_id'])
    .execute();

  await db.schema
    .createTable('sms_send_requests')
    .addColumn('sms_user_id', 'bigint', (c) => c.notNull().references('sms_users.id').onDelete('cascade'))
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('sms_send_requests_pk', ['sms_user_id', 'request_id'])
    .execute();

  await db.schema
    .createTable('sms_events')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('sms_message_id', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sms_events_account').on('sms_events').columns(['account_id', 'id']).execute();
}
