import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import { containing } from '../../db/like-pattern.ts';
import type { TimedTasksTable } from '../../db/timed-task-schema.ts';
import { insertTaskRows, type NewTask } from '../mail-list-tasks/mail-list-tasks.repo.ts';
import { claimDueTask, updateHeldTask } from '../tasks/task-lease.repo.ts';

/**
 * Timed tasks' SQL (migration 0050). Every query a console call reaches is scoped by account,
 * and by the user who made the task when the account has `taskPrivate` on (`owner`).
 */
export type TaskRow = Selectable<TimedTasksTable>;

export interface TaskValues {
  api_user_id: number;
  name: string;
  from_name: string;
  from_address: string;
  reply_to: string | null;
  template_id: number;
  list_ids: string;
  label_id: number | null;
  tag: string | null;
  local_time: string;
  time_zone: string;
  send_at: number;
}

/** The tasks a caller may see: the account's, or only their own (taskPrivate). */
function tasksOf({ db }: Database, accountId: number, owner: number | null) {
  let query = db.selectFrom('timed_tasks').where('account_id', '=', accountId);
  if (owner !== null) query = query.where('created_by', '=', owner);
  return query;
}

export async function insertTask(
  { db }: Database,
  accountId: number,
  createdBy: number | null,
  values: TaskValues,
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('timed_tasks')
    .values({
      ...values,
      account_id: accountId,
      created_by: createdBy,
      status: 'waiting',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Changes a task still waiting for its time; false once it has started (or is not the caller's). */
export async function updateWaiting(
  { db }: Database,
  accountId: number,
  owner: number | null,
  id: number,
  values: TaskValues,
  now: number,
): Promise<boolean> {
  let query = db
    .updateTable('timed_tasks')
    .set({ ...values, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', '=', 'waiting');
  if (owner !== null) query = query.where('created_by', '=', owner);
  return Number((await query.executeTakeFirst()).numUpdatedRows) === 1;
}

export async function cancelWaiting(
  { db }: Database,
  accountId: number,
  owner: number | null,
  id: number,
  now: number,
): Promise<boolean> {
  let query = db
    .updateTable('timed_tasks')
    .set({ status: 'cancelled', updated_at: now, ended_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', '=', 'waiting');
  if (owner !== null) query = query.where('created_by', '=', owner);
  return Number((await query.executeTakeFirst()).numUpdatedRows) === 1;
}

/**
 * Deletes a task that is not making its request and none of whose list sends is still writing
 * or waiting; false otherwise. Its list sends stay (their mail is the account's send data).
 */
export async function deleteIdle(
  { db }: Database,
  accountId: number,
  owner: number | null,
  id: number,
): Promise<boolean> {
  let query = db
    .deleteFrom('timed_tasks')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', '!=', 'sending')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('mail_list_tasks as l')
            .select('l.id')
            .whereRef('l.timed_task_id', '=', 'timed_tasks.id')
            .where('l.status', 'in', ['waiting', 'sending']),
        ),
      ),
    );
  if (owner !== null) query = query.where('created_by', '=', owner);
  const deleted = Number((await query.executeTakeFirst()).numDeletedRows) === 1;
  if (deleted) {
    await db
      .deleteFrom('timed_task_files')
      .where('account_id', '=', accountId)
      .where('task_id', '=', id)
      .execute();
  }
  return deleted;
}

export async function findTask(
  database: Database,
  accountId: number,
  owner: number | null,
  id: number,
): Promise<TaskRow | undefined> {
  return tasksOf(database, accountId, owner).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listTasks(
  database: Database,
  accountId: number,
  owner: number | null,
  filter: {
    name?: string | undefined;
    status?: TaskRow['status'] | undefined;
    offset: number;
    limit: number;
  },
): Promise<{ rows: TaskRow[]; total: number }> {
  let query = tasksOf(database, accountId, owner);
  if (filter.name) query = query.where('name', 'like', containing(filter.name));
  if (filter.status) query = query.where('status', '=', filter.status);
  const [rows, total] = await Promise.all([
    query.selectAll().orderBy('id', 'desc').offset(filter.offset).limit(filter.limit).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** Takes one due task for `owner` (core/tasks/task-lease.repo.ts). */
export const claimTask = (database: Database, owner: string, now: number, leaseMs: number) =>
  claimDueTask<TaskRow>(database, 'timed_tasks', owner, now, leaseMs);

/** Marks a held task's request failed; false once this owner no longer holds it. */
export const failHeld = (database: Database, id: number, owner: string, code: string, now: number) =>
  updateHeldTask(database, 'timed_tasks', id, owner, {
    status: 'failed',
    error_code: code,
    written: 1,
    ended_at: now,
    updated_at: now,
    lease_owner: null,
    lease_until: null,
  });

/**
 * The request: the task's list sends written and the task marked requested in one transaction,
 * fenced by the lease. False (nothing written) once this owner no longer holds the task.
 */
export async function request(
  database: Database,
  id: number,
  owner: string,
  sends: NewTask[],
  now: number,
): Promise<boolean> {
  return database.db.transaction().execute(async (trx) => {
    const held = await updateHeldTask({ ...database, db: trx }, 'timed_tasks', id, owner, {
      status: 'requested',
      written: 1,
      updated_at: now,
      lease_owner: null,
      lease_until: null,
    });
    if (!held) return false;
    await insertTaskRows({ ...database, db: trx }, sends, now);
    return true;
  });
}

/** The list sends the requests of these tasks made. */
export async function sendsOf({ db }: Database, accountId: number, taskIds: number[]) {
  if (taskIds.length === 0) return [];
  return db
    .selectFrom('mail_list_tasks')
    .select([
      'id',
      'timed_task_id',
      'list_id',
      'list_address',
      'status',
      'member_total',
      'queued',
      'error_code',
    ])
    .where('account_id', '=', accountId)
    .where('timed_task_id', 'in', taskIds)
    .orderBy('id')
    .execute();
}

/** The `taskPrivate` system parameter of the account. */
export async function taskPrivate({ db }: Database, accountId: number): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select('task_private')
    .where('id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.task_private ?? 0) === 1;
}

export async function setTaskPrivate({ db }: Database, accountId: number, on: boolean): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ task_private: on ? 1 : 0 })
    .where('id', '=', accountId)
    .execute();
}
