import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * The gateway for customers' own systems (issue 17): their CMPP_USERs and SMPP system ids with the
 * shared secret sealed, the addresses each may connect from, its window and rate; the operator's
 * cap per account; and the reports and replies owed to a customer's connection. A receipt row is
 * written with the SMS it is about (state waiting), becomes ready when the SMS settles, and is
 * acked when the customer answered its DELIVER (or deliver_sm); a reply (MO) row starts ready.
 * The relay reads the SMS event log after its own cursor, started here at the log's end.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('sms_gateway_users')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('protocol', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('secret_hint', 'text', (c) => c.notNull())
    .addColumn('allowed_ips', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('window_size', 'integer', (c) => c.notNull())
    .addColumn('per_second', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sms_gateway_users_name')
    .on('sms_gateway_users')
    .columns(['protocol', 'name'])
    .unique()
    .execute();
  await db.schema
    .createIndex('sms_gateway_users_account')
    .on('sms_gateway_users')
    .column('account_id')
    .execute();

  await db.schema
    .createTable('sms_gateway_caps')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('max_users', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sms_gateway_receipts')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('gateway_user_id', 'bigint', (c) => c.notNull())
    .addColumn('sms_message_id', 'bigint')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('msg_id', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('src_id', 'text', (c) => c.notNull())
    .addColumn('wants_report', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('stat', 'text')
    .addColumn('content', 'text')
    .addColumn('submitted_at', 'bigint', (c) => c.notNull())
    .addColumn('done_at', 'bigint')
    .addColumn('sent_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('sms_gateway_receipts_message')
    .on('sms_gateway_receipts')
    .column('sms_message_id')
    .execute();
  await db.schema
    .createIndex('sms_gateway_receipts_due')
    .on('sms_gateway_receipts')
    .columns(['gateway_user_id', 'state', 'id'])
    .execute();

  await db.schema
    .createIndex('sms_gateway_receipts_state')
    .on('sms_gateway_receipts')
    .columns(['state', 'submitted_at'])
    .execute();

  await sql`
    INSERT INTO mail_event_cursors (name, last_id, updated_at)
    SELECT 'smsgateway', COALESCE(MAX(id), 0), 0 FROM sms_events
  `.execute(db);
}
