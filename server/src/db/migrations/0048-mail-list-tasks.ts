import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Sending to address lists (issue 21): `mail/send` and `mail/sendtemplate` with
 * `useAddressList=true` make one task per list, answered at once; a worker writes its mail.
 *
 * A task is SMS tasks' design (0046): claimed once by one worker under a lease on its row
 * (`lease_owner`, `lease_until`, the claim shared in core/tasks/task-lease.repo.ts), its members
 * read in address order after `cursor_address`, each chunk written through the message writer as
 * one individual message in the same transaction as the task's cursor and count, fenced by the
 * lease: a worker killed mid-way leaves a task the next one continues where it stopped, no member
 * mailed twice. `request` is the checked send (sender, subject, content, label, headers) and
 * `attachments` its files, kept until every chunk is written.
 *
 * `messages.list_task_id` ties a chunk's message to its task (the task's progress counts its
 * recipients). `message_recipients.lane` keeps a million-member task from holding up
 * transactional mail: the delivery claim takes lane 0 (every other send) before lane 1 (list
 * tasks), each lane one range of the (status, lane, next_attempt_at) index, which replaces the
 * (status, next_attempt_at) one.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('mail_list_tasks')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('api_user_id', 'bigint', (c) => c.notNull())
    .addColumn('list_id', 'bigint', (c) => c.notNull())
    .addColumn('list_address', 'text', (c) => c.notNull())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('attachments', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('send_at', 'bigint', (c) => c.notNull())
    .addColumn('member_total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('queued', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('cursor_address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('written', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('error_code', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('mail_list_tasks_due')
    .on('mail_list_tasks')
    .columns(['status', 'send_at'])
    .execute();
  await db.schema
    .createIndex('mail_list_tasks_account')
    .on('mail_list_tasks')
    .columns(['account_id', 'id'])
    .execute();

  await db.schema.alterTable('messages').addColumn('list_task_id', 'bigint').execute();
  await db.schema.createIndex('messages_list_task').on('messages').column('list_task_id').execute();

  await db.schema
    .alterTable('message_recipients')
    .addColumn('lane', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.dropIndex('message_recipients_due').execute();
  await db.schema
    .createIndex('message_recipients_lane_due')
    .on('message_recipients')
    .columns(['status', 'lane', 'next_attempt_at'])
    .execute();
}
