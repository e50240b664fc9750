import type { Database } from '../../db/database.ts';
import type { JobSchedulesTable } from '../../db/schema.ts';
import { DEFAULT_BACKOFF_MS, DEFAULT_MAX_ATTEMPTS, DEFAULT_PRIORITY } from '../queue.ts';

export type ScheduleRow = JobSchedulesTable;

export async function upsertSchedule({ db }: Database, row: Omit<ScheduleRow, 'last_run_at'>): Promise<void> {
  const { id: _id, ...rest } = row;
  await db
    .insertInto('job_schedules')
    .values({ ...row, last_run_at: null })
    .onConflict((oc) => oc.column('id').doUpdateSet(rest))
    .execute();
}

export async function deleteSchedule({ db }: Database, id: string): Promise<void> {
  await db.deleteFrom('job_schedules').where('id', '=', id).execute();
}

export async function dueSchedules({ db }: Database, now: number): Promise<ScheduleRow[]> {
  return db.selectFrom('job_schedules').selectAll().where('next_run_at', '<=', now).execute();
}

export async function nextScheduleTime({ db }: Database): Promise<number | null> {
  const row = await db
    .selectFrom('job_schedules')
    .select((eb) => eb.fn.min<number>('next_run_at').as('next'))
    .executeTakeFirst();
  return row?.next == null ? null : Number(row.next);
}

/**
 * Claims one tick of a schedule and enqueues its job, atomically. The compare-and-set on
 * next_run_at means that of several worker processes looking at the same due tick, exactly one
 * advances it and enqueues; the others update nothing.
 */
export async function fireSchedule(
  { db }: Database,
  row: ScheduleRow,
  nextRunAt: number,
  now: number,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const advanced = await trx
      .updateTable('job_schedules')
      .set({ next_run_at: nextRunAt, last_run_at: now })
      .where('id', '=', row.id)
      .where('next_run_at', '=', row.next_run_at)
      .executeTakeFirst();
    if (advanced.numUpdatedRows === 0n) return false;
    await trx
      .insertInto('jobs')
      .values({
        queue: row.queue,
        name: row.name,
        payload: row.payload,
        state: 'waiting',
        priority: DEFAULT_PRIORITY,
        run_at: now,
        attempts: 0,
        max_attempts: DEFAULT_MAX_ATTEMPTS,
        backoff_ms: DEFAULT_BACKOFF_MS,
        dedupe_key: null,
        created_at: now,
      })
      .execute();
    return true;
  });
}
