import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { JobsTable } from '../../db/schema.ts';
import type { JobCounts } from '../queue.ts';
import { emptyCounts } from '../queue.ts';

/** SQL of the database-backed queue. Every state change of a held job is fenced by its lease token. */

export interface NewJob {
  queue: string;
  name: string;
  payload: string;
  priority: number;
  runAt: number;
  maxAttempts: number;
  backoffMs: number;
  dedupeKey: string | null;
}

export interface ClaimedJob {
  id: number;
  name: string;
  payload: string;
  attempts: number;
  max_attempts: number;
  backoff_ms: number;
}

const INSERT_CHUNK = 500;

function toRow(job: NewJob, now: number) {
  return {
    queue: job.queue,
    name: job.name,
    payload: job.payload,
    state: 'waiting' as const,
    priority: job.priority,
    run_at: job.runAt,
    attempts: 0,
    max_attempts: job.maxAttempts,
    backoff_ms: job.backoffMs,
    dedupe_key: job.dedupeKey,
    created_at: now,
  };
}

/** Inserts jobs in one transaction; returns, in input order, each id and whether it was a duplicate. */
export async function insertJobs(
  { db }: Database,
  jobs: NewJob[],
  now: number,
): Promise<{ id: number; deduplicated: boolean }[]> {
  return db.transaction().execute(async (trx) => {
    const results: { id: number; deduplicated: boolean }[] = new Array(jobs.length);
    const plain: number[] = [];
    for (const [index, job] of jobs.entries()) {
      if (job.dedupeKey === null) {
        plain.push(index);
        continue;
      }
      const inserted = await trx
        .insertInto('jobs')
        .values(toRow(job, now))
        .onConflict((oc) => oc.columns(['queue', 'dedupe_key']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) {
        results[index] = { id: inserted.id, deduplicated: false };
      } else {
        const existing = await trx
          .selectFrom('jobs')
          .select('id')
          .where('queue', '=', job.queue)
          .where('dedupe_key', '=', job.dedupeKey)
          .executeTakeFirstOrThrow();
        results[index] = { id: existing.id, deduplicated: true };
      }
    }
    for (let start = 0; start < plain.length; start += INSERT_CHUNK) {
      const chunk = plain.slice(start, start + INSERT_CHUNK);
      const rows = await trx
        .insertInto('jobs')
        .values(chunk.map((index) => toRow(jobs[index]!, now)))
        .returning('id')
        .execute();
      // Identity values are handed out in VALUES order, so ascending ids match the chunk's order.
      const ids = rows.map((row) => row.id).sort((a, b) => a - b);
      chunk.forEach((index, i) => {
        results[index] = { id: ids[i]!, deduplicated: false };
      });
    }
    return results;
  });
}

/** Leases up to `limit` due jobs of a queue to `token` until `leaseUntil`. */
export async function claimJobs(
  { db, dialect }: Database,
  queue: string,
  limit: number,
  token: string,
  now: number,
  leaseUntil: number,
): Promise<ClaimedJob[]> {
  let due = db
    .selectFrom('jobs')
    .select('id')
    .where('queue', '=', queue)
    .where('state', '=', 'waiting')
    .where('run_at', '<=', now)
    .orderBy('priority')
    .orderBy('run_at')
    .orderBy('id')
    .limit(limit);
  // SQLite serialises writers, so the UPDATE … WHERE id IN (SELECT …) is atomic there;
  // PostgreSQL needs the rows locked, skipping those another worker is claiming.
  if (dialect === 'postgres') due = due.forUpdate().skipLocked();
  // An idle poll only reads on SQLite: the UPDATE takes the file's write lock even when it
  // matches nothing, and waits for it behind the other writers (the delivery and accept writer
  // threads) in the polling thread.
  else if ((await due.clearLimit().limit(1).executeTakeFirst()) === undefined) return [];
  return db
    .updateTable('jobs')
    .set({ state: 'active', lease_token: token, lease_until: leaseUntil, attempts: sql`attempts + 1` })
    .where('id', 'in', due)
    .returning(['id', 'name', 'payload', 'attempts', 'max_attempts', 'backoff_ms'])
    .execute();
}

export async function renewLeases({ db }: Database, tokens: string[], leaseUntil: number): Promise<void> {
  if (tokens.length === 0) return;
  await db.updateTable('jobs').set({ lease_until: leaseUntil }).where('lease_token', 'in', tokens).execute();
}

/** Marks a held job completed. False when the lease was lost (another worker took it over). */
export async function completeJob(
  { db }: Database,
  id: number,
  token: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ state: 'completed', finished_at: now, lease_token: null, lease_until: null, dedupe_key: null })
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function retryJob(
  { db }: Database,
  id: number,
  token: string,
  runAt: number,
  error: string,
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ state: 'waiting', run_at: runAt, last_error: error, lease_token: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function killJob({ db }: Database, id: number, token: string, error: string, now: number) {
  const result = await db
    .updateTable('jobs')
    .set({
      state: 'dead',
      finished_at: now,
      last_error: error,
      lease_token: null,
      lease_until: null,
      dedupe_key: null,
    })
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Hands held jobs back untouched (graceful shutdown): the interrupted run does not count. */
export async function releaseJobs({ db }: Database, tokens: string[], ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('jobs')
    .set({ state: 'waiting', attempts: sql`attempts - 1`, lease_token: null, lease_until: null })
    .where('id', 'in', ids)
    .where('lease_token', 'in', tokens)
    .execute();
}

/**
 * Jobs whose lease ran out belonged to a worker that died or hung: they go back to waiting,
 * or to dead when that was their last attempt.
 */
export async function recoverExpiredLeases({ db }: Database, queue: string, now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const dead = await trx
      .updateTable('jobs')
      .set({
        state: 'dead',
        finished_at: now,
        last_error: 'lease expired: the worker holding the job stopped',
        lease_token: null,
        lease_until: null,
        dedupe_key: null,
      })
      .where('queue', '=', queue)
      .where('state', '=', 'active')
      .where('lease_until', '<', now)
      .whereRef('attempts', '>=', 'max_attempts')
      .executeTakeFirst();
    const back = await trx
      .updateTable('jobs')
      .set({
        state: 'waiting',
        last_error: 'lease expired: the worker holding the job stopped',
        lease_token: null,
        lease_until: null,
      })
      .where('queue', '=', queue)
      .where('state', '=', 'active')
      .where('lease_until', '<', now)
      .executeTakeFirst();
    return Number(dead.numUpdatedRows + back.numUpdatedRows);
  });
}

export async function countJobs({ db }: Database, queue: string, now: number): Promise<JobCounts> {
  const rows = await db
    .selectFrom('jobs')
    .select([
      'state',
      sql<number>`case when state = 'waiting' and run_at > ${now} then 1 else 0 end`.as('later'),
      (eb) => eb.fn.countAll<number>().as('n'),
    ])
    .where('queue', '=', queue)
    .groupBy(['state', 'later'])
    .execute();
  const counts = emptyCounts();
  for (const row of rows) {
    const state = row.state === 'waiting' && Number(row.later) === 1 ? 'delayed' : row.state;
    counts[state] += Number(row.n);
  }
  return counts;
}

export async function listDeadJobs({ db }: Database, queue: string, limit: number) {
  return db
    .selectFrom('jobs')
    .select(['id', 'name', 'payload', 'attempts', 'last_error', 'finished_at'])
    .where('queue', '=', queue)
    .where('state', '=', 'dead')
    .orderBy('finished_at', 'desc')
    .limit(limit)
    .execute();
}

export async function reviveDeadJob(
  { db }: Database,
  queue: string,
  id: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ state: 'waiting', attempts: 0, run_at: now, finished_at: null })
    .where('id', '=', id)
    .where('queue', '=', queue)
    .where('state', '=', 'dead')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes finished jobs older than the given times; returns how many went. */
export async function pruneFinishedJobs(
  { db }: Database,
  completedBefore: number,
  deadBefore: number,
): Promise<number> {
  const completed = await db
    .deleteFrom('jobs')
    .where('state', '=', 'completed')
    .where('finished_at', '<', completedBefore)
    .executeTakeFirst();
  const dead = await db
    .deleteFrom('jobs')
    .where('state', '=', 'dead')
    .where('finished_at', '<', deadBefore)
    .executeTakeFirst();
  return Number(completed.numDeletedRows + dead.numDeletedRows);
}

export async function setPaused(
  { db }: Database,
  queue: string,
  paused: boolean,
  now: number,
): Promise<void> {
  await db
    .insertInto('queue_settings')
    .values({ queue, paused: paused ? 1 : 0, updated_at: now })
    .onConflict((oc) => oc.column('queue').doUpdateSet({ paused: paused ? 1 : 0, updated_at: now }))
    .execute();
}

export async function isPaused({ db }: Database, queue: string): Promise<boolean> {
  const row = await db
    .selectFrom('queue_settings')
    .select('paused')
    .where('queue', '=', queue)
    .executeTakeFirst();
  return row?.paused === 1;
}

export type JobRow = JobsTable;
