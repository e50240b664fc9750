import type { MailListTasksTable } from '../../db/address-list-schema.ts';
import type { Database } from '../../db/database.ts';
import { claimDueTask, updateHeldTask } from '../tasks/task-lease.repo.ts';

/**
 * List sends' tasks (migration 0048). Scoped by account in every query a caller reaches; the
 * runner's claim and finish span accounts. A task's progress is counted from the recipients of
 * its chunks' messages (messages.list_task_id).
 */
export type TaskRow = {
  [K in keyof MailListTasksTable]: MailListTasksTable[K] extends import('kysely').Generated<infer T>
    ? T
    : MailListTasksTable[K];
};

export interface NewTask {
  accountId: number;
  apiUserId: number;
  listId: number;
  listAddress: string;
  request: string;
  attachments: string | null;
  /** The timed task making it, whose attachments it sends (attachments then null). */
  timedTaskId?: number;
}

/** A list send's sendRequestId and how long it answers with its first tasks. */
export interface RequestKey {
  sendRequestId: string;
  ttlMs: number;
}

/**
 * The tasks of one call, one per list, in one transaction; answers their ids in order. With a
 * key, a sendRequestId the account used within its hour answers the tasks it made then and writes
 * nothing (the same send_requests row a single send keeps, its message_id marking it a list
 * send's). Two calls racing with one key: the loser's insert breaks the unique key, its
 * transaction rolls back, and it answers the winner's tasks.
 */
export async function insertTasks(
  database: Database,
  tasks: NewTask[],
  now: number,
  key: RequestKey | null = null,
): Promise<{ ids: number[]; replayed: boolean }> {
  const attempt = () =>
    database.db.transaction().execute(async (trx) => {
      const scoped = { ...database, db: trx };
      if (key) {
        const earlier = await earlierRequest(scoped, tasks[0]?.accountId ?? 0, key.sendRequestId);
        if (earlier && Number(earlier.expires_at) > now) {
          return { ids: JSON.parse(earlier.email_ids) as number[], replayed: true };
        }
        if (earlier) await trx.deleteFrom('send_requests').where('id', '=', earlier.id).execute();
      }
      const ids = await insertTaskRows(scoped, tasks, now);
      if (key) {
        await trx
          .insertInto('send_requests')
          .values({
            account_id: tasks[0]?.accountId ?? 0,
            send_request_id: key.sendRequestId,
            message_id: `list-tasks:${ids.join(',')}`,
            email_ids: JSON.stringify(ids),
            expires_at: now + key.ttlMs,
          })
          .execute();
      }
      return { ids, replayed: false };
    });
  try {
    return await attempt();
  } catch (error) {
    if (!key) throw error;
    const earlier = await earlierRequest(database, tasks[0]?.accountId ?? 0, key.sendRequestId);
    if (!earlier) throw error;
    return { ids: JSON.parse(earlier.email_ids) as number[], replayed: true };
  }
}

function earlierRequest({ db }: Database, accountId: number, sendRequestId: string) {
  return db
    .selectFrom('send_requests')
    .select(['id', 'email_ids', 'expires_at'])
    .where('account_id', '=', accountId)
    .where('send_request_id', '=', sendRequestId)
    .executeTakeFirst();
}

/** The same inside the caller's transaction (a timed task's request, fenced by its lease). */
export async function insertTaskRows({ db }: Database, tasks: NewTask[], now: number): Promise<number[]> {
  const ids: number[] = [];
  for (const task of tasks) {
    const row = await db
      .insertInto('mail_list_tasks')
      .values({
        account_id: task.accountId,
        api_user_id: task.apiUserId,
        list_id: task.listId,
        list_address: task.listAddress,
        request: task.request,
        attachments: task.attachments,
        timed_task_id: task.timedTaskId ?? null,
        status: 'waiting',
        send_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(Number(row.id));
  }
  return ids;
}

/** The account's task, with the name of the API_USER that made it. */
export async function findTask({ db }: Database, accountId: number, id: number) {
  return db
    .selectFrom('mail_list_tasks as t')
    .leftJoin('api_users as u', 'u.id', 't.api_user_id')
    .selectAll('t')
    .select('u.name as api_user_name')
    .where('t.account_id', '=', accountId)
    .where('t.id', '=', id)
    .executeTakeFirst() as Promise<(TaskRow & { api_user_name: string | null }) | undefined>;
}

/** Takes one due task for `owner` (core/tasks/task-lease.repo.ts). */
export const claimTask = (database: Database, owner: string, now: number, leaseMs: number) =>
  claimDueTask<TaskRow>(database, 'mail_list_tasks', owner, now, leaseMs);

/** Updates a task this owner holds; false once it no longer does. */
export const updateHeld = (
  database: Database,
  id: number,
  owner: string,
  set: Partial<Omit<TaskRow, 'id' | 'account_id'>>,
) => updateHeldTask(database, 'mail_list_tasks', id, owner, set as Record<string, string | number | null>);

/** Recipient statuses still with Herald: not yet delivered, bounced or refused. */
const PENDING = ['requested', 'deferred', 'held', 'sending'];

/** Written tasks none of whose recipients is still with Herald: finished. Answers how many. */
export async function finishSent({ db }: Database, now: number): Promise<number> {
  const result = await db
    .updateTable('mail_list_tasks')
    .set({ status: 'finished', ended_at: now, updated_at: now, lease_owner: null, lease_until: null })
    .where('status', '=', 'sending')
    .where('written', '=', 1)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('messages as m')
            .innerJoin('message_recipients as r', 'r.message_id', 'm.id')
            .select('r.id')
            .whereRef('m.list_task_id', '=', 'mail_list_tasks.id')
            .where('r.status', 'in', PENDING),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface RecipientCounts {
  /** Still with Herald: queued, retrying or held. */
  waiting: number;
  delivered: number;
  /** Refused for good, suppressed and unsubscribed members among them. */
  invalid: number;
  softBounce: number;
  /** Of the invalid: members who had unsubscribed (sub-status 402). */
  unsubscribed: number;
  /** Of the invalid: members on a block list (sub-status 401: bounces, spam reports, blacklists). */
  blocked: number;
}

/** The task's recipients by where they stand. */
export async function recipientCounts({ db }: Database, taskId: number): Promise<RecipientCounts> {
  const rows = await db
    .selectFrom('messages as m')
    .innerJoin('message_recipients as r', 'r.message_id', 'm.id')
    .select(['r.status', 'r.sub_status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('m.list_task_id', '=', taskId)
    .groupBy(['r.status', 'r.sub_status'])
    .execute();
  const counts: RecipientCounts = {
    waiting: 0,
    delivered: 0,
    invalid: 0,
    softBounce: 0,
    unsubscribed: 0,
    blocked: 0,
  };
  for (const row of rows) {
    const n = Number(row.n);
    if (PENDING.includes(row.status)) counts.waiting += n;
    else if (row.status === 'delivered') counts.delivered += n;
    else if (row.status === 'soft_bounce') counts.softBounce += n;
    else if (row.status === 'invalid') {
      counts.invalid += n;
      if (Number(row.sub_status) === 402) counts.unsubscribed += n;
      if (Number(row.sub_status) === 401) counts.blocked += n;
    }
  }
  return counts;
}
