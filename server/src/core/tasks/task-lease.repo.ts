import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';

/**
 * The lease every sending task runs under (SMS tasks, migration 0046; list sends, 0048; timed
 * tasks, 0050): a task table has `status` ('waiting' until its time, then 'sending'), `send_at`,
 * `written` (1 once all its messages are written), `lease_owner`, `lease_until`, `started_at` and
 * `updated_at`. A task fires once however many workers there are: one statement takes it for one
 * of them, and every later write about it is fenced by its owner, so a worker that lost it writes
 * nothing more.
 */
export type TaskTable = 'sms_tasks' | 'mail_list_tasks' | 'timed_tasks';

/**
 * Takes one task for `owner`: a waiting task whose time has come, or a sending one whose writer
 * stopped (its lease ran out) with messages still to write. One statement, the due condition
 * checked again on the row itself, so of two workers racing for a task one gets it.
 */
export async function claimDueTask<Row>(
  database: Database,
  table: TaskTable,
  owner: string,
  now: number,
  leaseMs: number,
): Promise<Row | undefined> {
  const lock = database.dialect === 'postgres' ? sql.raw('FOR UPDATE SKIP LOCKED') : sql.raw('');
  const due = sql`((status = 'waiting' AND send_at <= ${now})
    OR (status = 'sending' AND written = 0 AND lease_until < ${now}))`;
  const result = await sql<Row>`
    UPDATE ${sql.table(table)} SET status = 'sending', lease_owner = ${owner}, lease_until = ${now + leaseMs},
      started_at = COALESCE(started_at, ${now}), updated_at = ${now}
    WHERE id = (SELECT id FROM ${sql.table(table)} WHERE ${due} ORDER BY send_at LIMIT 1 ${lock}) AND ${due}
    RETURNING *`.execute(database.db);
  return result.rows[0];
}

/** Updates a task this owner holds; false once it no longer does. */
export async function updateHeldTask(
  { db }: Database,
  table: TaskTable,
  id: number,
  owner: string,
  set: Record<string, string | number | null>,
): Promise<boolean> {
  const result = await db
    .updateTable(table as 'sms_tasks')
    .set(set)
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'sending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
