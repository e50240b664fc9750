import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * SMS tasks (issue 17): one template sent to the members of up to 5 contact lists, now or at a
 * chosen time.
 *
 * A task fires once however many workers there are: a worker takes it with a lease on its row
 * (`lease_owner`, `lease_until`) and writes its messages chunk by chunk, each chunk in the same
 * transaction as the task's cursor (`cursor_list`, the index into `list_ids`, and
 * `cursor_phone`, the last number of that list written, in the list's number order), so a worker killed mid-way leaves a task another
 * one continues exactly where it stopped, never sending a number twice. A resend task (the failed
 * messages of another sent again) walks those messages by id instead (`cursor_message`).
 *
 * `sms_messages.lane` keeps a task from starving transactional SMS: the claim takes lane 0 (API
 * calls, verification codes, the gateway) before lane 1 (tasks), and `task_id` ties a message
 * to its task for the task's progress and its resend.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('sms_tasks')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('template_id', 'bigint', (c) => c.notNull())
    .addColumn('sign_name', 'text')
    .addColumn('label_id', 'bigint')
    .addColumn('list_ids', 'text', (c) => c.notNull())
    .addColumn('send_at', 'bigint', (c) => c.notNull())
    .addColumn('scheduled', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('resend_of', 'bigint')
    .addColumn('resent_by', 'bigint')
    .addColumn('member_total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('queued', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('skip_reasons', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('cursor_list', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cursor_phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cursor_message', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('written', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('error_code', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema.createIndex('sms_tasks_due').on('sms_tasks').columns(['status', 'send_at']).execute();
  await db.schema
    .createIndex('sms_tasks_account')
    .on('sms_tasks')
    .columns(['account_id', 'created_at'])
    .execute();

  await db.schema.alterTable('sms_messages').addColumn('task_id', 'bigint').execute();
  await db.schema
    .alterTable('sms_messages')
    .addColumn('lane', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('sms_messages_lane_due')
    .on('sms_messages')
    .columns(['status', 'lane', 'due_at'])
    .execute();
  await db.schema
    .createIndex('sms_messages_task')
    .on('sms_messages')
    .columns(['task_id', 'status'])
    .execute();
}
