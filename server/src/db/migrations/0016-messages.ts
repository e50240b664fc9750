import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Accepted mail (issue 5): one `messages` row per accepted request or SMTP transaction, its body in
 * `message_contents` (the html/plain parts of an API send, or the raw MIME of an SMTP submission)
 * and `message_attachments`, and one `message_recipients` row per recipient.
 *
 * The recipients table is the durable delivery queue: a row is written with status `requested` in
 * the same transaction as its message, before the API or SMTP server answers, and the delivery
 * engine (issue 6) claims rows by (status, next_attempt_at). No queue job is enqueued per message:
 * a job nobody consumes would only fail, and a second store would need its own transaction.
 *
 * `send_requests` remembers a client's sendRequestId for an hour (SendCloud's idempotency), and
 * `daily_usage` counts accepted mails per API_USER and day (Asia/Shanghai) for the quotas.
 */
export async function up(db: Kysely<unknown>, { id, dialect }: MigrationContext): Promise<void> {
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';

  await db.schema
    .createTable('messages')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('api_user_id', 'bigint', (c) => c.references('api_users.id').onDelete('set null'))
    .addColumn('message_id', 'text', (c) => c.notNull().unique())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('email_type', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('from_name', 'text')
    .addColumn('reply_to', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('content_summary', 'text')
    .addColumn('label_id', 'bigint', (c) => c.references('labels.id').onDelete('set null'))
    .addColumn('template_id', 'bigint', (c) => c.references('email_templates.id').onDelete('set null'))
    .addColumn('headers', 'text')
    .addColumn('xsmtpapi', 'text')
    .addColumn('use_notification', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('individual', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('recipient_count', 'integer', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('messages_account_created')
    .on('messages')
    .columns(['account_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('message_contents')
    .addColumn('message_id', 'bigint', (c) => c.primaryKey().references('messages.id').onDelete('cascade'))
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('html', 'text')
    .addColumn('plain', 'text')
    .addColumn('mime', blob)
    .execute();

  await db.schema
    .createTable('message_attachments')
    .addColumn('id', ...id)
    .addColumn('message_id', 'bigint', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('content', blob, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('message_attachments_message')
    .on('message_attachments')
    .columns(['message_id'])
    .execute();

  await db.schema
    .createTable('message_recipients')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('message_id', 'bigint', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('rcpt_index', 'integer', (c) => c.notNull())
    .addColumn('email_id', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('recipient_domain', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('vars', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('message_recipients_due')
    .on('message_recipients')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('message_recipients_email_id')
    .on('message_recipients')
    .columns(['email_id'])
    .execute();
  await db.schema
    .createIndex('message_recipients_message')
    .on('message_recipients')
    .columns(['message_id'])
    .execute();

  await db.schema
    .createTable('send_requests')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('send_request_id', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('email_ids', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('send_requests_account_request', ['account_id', 'send_request_id'])
    .execute();
  await db.schema.createIndex('send_requests_expires').on('send_requests').columns(['expires_at']).execute();

  await db.schema
    .createTable('daily_usage')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('api_user_id', 'bigint', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('daily_usage_pk', ['account_id', 'day', 'api_user_id'])
    .execute();
}
