import type { Database } from '../../db/database.ts';
import { containing } from '../../db/like-pattern.ts';
import type { SmsTaskStatus, SmsTasksTable } from '../../db/sms-task-schema.ts';
import { claimDueTask, updateHeldTask } from '../tasks/task-lease.repo.ts';

/**
 * SMS tasks (migration 0046). Tasks are scoped by account in every query the console or API
 * reaches; the runner's claim and finish span accounts. Members are read in number order from
 * the (list_id, phone) index, a number of an earlier list of the task left out.
 */
export type TaskRow = {
  [K in keyof SmsTasksTable]: SmsTasksTable[K] extends import('kysely').Generated<infer T>
    ? T
    : SmsTasksTable[K];
};

export interface NewTask {
  accountId: number;
  name: string;
  templateId: number;
  signName: string | null;
  labelId: number | null;
  listIds: number[];
  sendAt: number;
  scheduled: boolean;
  source: string;
  resendOf: number | null;
}

export interface MessageCounts {
  requesting: number;
  waiting: number;
  delivered: number;
  failed: number;
}

export async function insertTask({ db }: Database, task: NewTask, now: number): Promise<number> {
  const row = await db
    .insertInto('sms_tasks')
    .values({
      account_id: task.accountId,
      name: task.name,
      template_id: task.templateId,
      sign_name: task.signName,
      label_id: task.labelId,
      list_ids: JSON.stringify(task.listIds),
      send_at: task.sendAt,
      scheduled: task.scheduled ? 1 : 0,
      status: 'waiting',
      source: task.source,
      resend_of: task.resendOf,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function findTask(
  { db }: Database,
  accountId: number,
  id: number,
): Promise<TaskRow | undefined> {
  return (await db
    .selectFrom('sms_tasks')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst()) as TaskRow | undefined;
}

export async function listTasks(
  { db }: Database,
  accountId: number,
  filter: { name?: string | undefined; status?: SmsTaskStatus | undefined; offset: number; limit: number },
): Promise<{ rows: TaskRow[]; total: number }> {
  let query = db.selectFrom('sms_tasks').where('account_id', '=', accountId);
  if (filter.name) query = query.where('name', 'like', containing(filter.name));
  if (filter.status) query = query.where('status', '=', filter.status);
  const [rows, total] = await Promise.all([
    query.selectAll().orderBy('id', 'desc').offset(filter.offset).limit(filter.limit).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as TaskRow[], total: Number(total.n) };
}

/** Cancels a task that has not started; false when it has (or is not there). */
export async function cancelTask(
  { db }: Database,
  accountId: number,
  id: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('sms_tasks')
    .set({ status: 'cancelled', ended_at: now, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', '=', 'waiting')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Creates the task that resends `original`'s failed messages, and marks the original resent, in
 * one transaction fenced by `resent_by IS NULL`: two clicks make one resend.
 */
export async function insertResend(
  database: Database,
  original: TaskRow,
  task: NewTask,
  now: number,
): Promise<number | undefined> {
  return database.db.transaction().execute(async (trx) => {
    const id = await insertTask({ ...database, db: trx }, task, now);
    const marked = await trx
      .updateTable('sms_tasks')
      .set({ resent_by: id, updated_at: now })
      .where('id', '=', original.id)
      .where('resent_by', 'is', null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 1) return id;
    await trx.deleteFrom('sms_tasks').where('id', '=', id).execute();
    return undefined;
  });
}

/** Takes one due task for `owner` (core/tasks/task-lease.repo.ts). */
export const claimTask = (database: Database, owner: string, now: number, leaseMs: number) =>
  claimDueTask<TaskRow>(database, 'sms_tasks', owner, now, leaseMs);

/** Updates a task this owner holds; false once it no longer does. */
export const updateHeld = (
  database: Database,
  id: number,
  owner: string,
  set: Partial<Omit<TaskRow, 'id' | 'account_id'>>,
) => updateHeldTask(database, 'sms_tasks', id, owner, set as Record<string, string | number | null>);

/** Written tasks none of whose messages is still with Herald: finished. Answers how many. */
export async function finishSent({ db }: Database, now: number): Promise<number> {
  const result = await db
    .updateTable('sms_tasks')
    .set({ status: 'finished', ended_at: now, updated_at: now, lease_owner: null, lease_until: null })
    .where('status', '=', 'sending')
    .where('written', '=', 1)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('sms_messages')
            .select('sms_messages.id')
            .whereRef('sms_messages.task_id', '=', 'sms_tasks.id')
            .where('sms_messages.status', '=', 'requesting'),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Per task, its messages by where they stand. */
export async function messageCounts(
  { db }: Database,
  taskIds: number[],
): Promise<Map<number, MessageCounts>> {
  const counts = new Map<number, MessageCounts>();
  if (taskIds.length === 0) return counts;
  const rows = await db
    .selectFrom('sms_messages')
    .select(['task_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('task_id', 'in', taskIds)
    .groupBy(['task_id', 'status'])
    .execute();
  for (const row of rows) {
    const id = Number(row.task_id);
    const entry = counts.get(id) ?? { requesting: 0, waiting: 0, delivered: 0, failed: 0 };
    const n = Number(row.n);
    if (row.status === 'requesting') entry.requesting += n;
    else if (row.status === 'waiting') entry.waiting += n;
    else if (row.status === 'delivered') entry.delivered += n;
    else entry.failed += n;
    counts.set(id, entry);
  }
  return counts;
}

/** Contact lists of the account by id, with what a task needs of them. */
export async function listsOf({ db }: Database, accountId: number, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('sms_contact_lists')
    .select(['id', 'name', 'member_count', 'pending_import_id'])
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    memberCount: Number(r.member_count),
    importing: r.pending_import_id !== null,
  }));
}

export interface MemberRow {
  phone: string;
  name: string;
  vars: string | null;
}

/**
 * The next members of `listIds[index]` after `afterPhone`, in number order, leaving out the rows
 * of the list's pending import and the numbers of the lists before it in the task.
 */
export async function nextMembers(
  { db }: Database,
  listIds: number[],
  index: number,
  afterPhone: string,
  limit: number,
): Promise<MemberRow[]> {
  const listId = listIds[index] as number;
  const earlier = listIds.slice(0, index);
  let query = db
    .selectFrom('sms_contact_members as m')
    .select(['m.phone', 'm.name', 'm.vars'])
    .where('m.list_id', '=', listId)
    .where('m.phone', '>', afterPhone)
    .where(({ or, eb, selectFrom }) =>
      or([
        eb('m.import_id', 'is', null),
        eb(
          'm.import_id',
          'not in',
          selectFrom('sms_contact_lists as l')
            .select('l.pending_import_id')
            .where('l.id', '=', listId)
            .where('l.pending_import_id', 'is not', null),
        ),
      ]),
    );
  if (earlier.length > 0) {
    query = query.where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('sms_contact_members as e')
            .select('e.id')
            .where('e.list_id', 'in', earlier)
            .whereRef('e.phone', '=', 'm.phone'),
        ),
      ),
    );
  }
  return query.orderBy('m.phone').limit(limit).execute();
}

/** The failed messages of a task after `afterId`, in id order: what its resend sends again. */
export async function failedMessages({ db }: Database, taskId: number, afterId: number, limit: number) {
  const rows = await db
    .selectFrom('sms_messages')
    .select([
      'id',
      'account_id',
      'template_id',
      'label_id',
      'msg_type',
      'phone',
      'country',
      'price_class',
      'parts',
      'content',
    ])
    .where('task_id', '=', taskId)
    .where('status', 'in', ['send_failed', 'processing_failed'])
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    accountId: Number(r.account_id),
    templateId: r.template_id === null ? null : Number(r.template_id),
    labelId: r.label_id === null ? null : Number(r.label_id),
    msgType: Number(r.msg_type),
    phone: r.phone,
    country: r.country,
    priceClass: r.price_class,
    parts: Number(r.parts),
    content: r.content,
  }));
}

/** How many of a task's messages are still with Herald, counting up to `cap`. */
export async function backlog({ db }: Database, taskId: number, cap: number): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('sms_messages')
        .select('id')
        .where('task_id', '=', taskId)
        .where('status', '=', 'requesting')
        .limit(cap)
        .as('waiting'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many of a task's messages failed (its resend's size). */
export async function failedCount({ db }: Database, taskId: number): Promise<number> {
  const row = await db
    .selectFrom('sms_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('task_id', '=', taskId)
    .where('status', 'in', ['send_failed', 'processing_failed'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Template names and signature names by template id (the task views show them). */
export async function templateNames({ db }: Database, accountId: number, ids: number[]) {
  if (ids.length === 0) return new Map<number, { name: string; signName: string }>();
  const rows = await db
    .selectFrom('sms_templates')
    .leftJoin('sms_signs', 'sms_signs.id', 'sms_templates.sign_id')
    .select(['sms_templates.id', 'sms_templates.name', 'sms_signs.name as sign_name'])
    .where('sms_templates.account_id', '=', accountId)
    .where('sms_templates.id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [Number(r.id), { name: r.name, signName: r.sign_name ?? '' }]));
}
