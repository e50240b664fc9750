import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Timed tasks (issue 21): a template sent at a set time to up to 5 address lists.
 *
 * A timed task is a row claimed once, when due, under a lease like every task
 * (core/tasks/task-lease.repo.ts: `status`, `send_at`, `written`, `lease_owner`, `lease_until`).
 * Its worker makes the request: in one transaction, fenced by the lease, it writes one list send
 * (`mail_list_tasks`, run as any list send) per list and marks itself requested; so however many
 * workers race for it, one request is made. `mail_list_tasks.timed_task_id` ties the list sends to
 * their task, whose attachments (`timed_task_files`, up to 50 MB, uploaded before the task is
 * saved) they read instead of carrying copies.
 *
 * `accounts.task_private` is the `taskPrivate` system parameter: when on, a console user sees and
 * changes only the timed tasks they made (`timed_tasks.created_by`).
 */
export async function up(db: Kysely<unknown>, { id, dialect }: MigrationContext): Promise<void> {
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  await db.schema
    .createTable('timed_tasks')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_by', 'bigint')
    .addColumn('api_user_id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('from_name', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('reply_to', 'text')
    .addColumn('template_id', 'bigint', (c) => c.notNull())
    .addColumn('list_ids', 'text', (c) => c.notNull())
    .addColumn('label_id', 'bigint')
    .addColumn('tag', 'text')
    .addColumn('local_time', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('send_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('written', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('error_code', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema.createIndex('timed_tasks_due').on('timed_tasks').columns(['status', 'send_at']).execute();
  await db.schema
    .createIndex('timed_tasks_account')
    .on('timed_tasks')
    .columns(['account_id', 'id'])
    .execute();

  await db.schema
    .createTable('timed_task_files')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('task_id', 'bigint')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content', blob, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('timed_task_files_owner')
    .on('timed_task_files')
    .columns(['account_id', 'task_id'])
    .execute();

  await db.schema.alterTable('mail_list_tasks').addColumn('timed_task_id', 'bigint').execute();
  await db.schema
    .createIndex('mail_list_tasks_timed')
    .on('mail_list_tasks')
    .column('timed_task_id')
    .execute();

  await db.schema
    .alterTable('accounts')
    .addColumn('task_private', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
