import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Database } from '../../db/database.ts';
import { nextCronTick } from '../cron.ts';
import {
  DEFAULT_BACKOFF_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_PRIORITY,
  type DeadJob,
  type EnqueueOptions,
  type EnqueueResult,
  type JobCounts,
  type JobHandler,
  type JobSpec,
  type QueueBackend,
  type QueueEvent,
  type ScheduledTask,
  type Worker,
  type WorkerOptions,
} from '../queue.ts';
import { DatabaseWorker, type WorkerOwner } from './database-worker.ts';
import * as jobs from './jobs.repo.ts';
import * as schedules from './schedules.repo.ts';

export interface DatabaseQueueOptions {
  /** How long a claimed job stays with its worker without a renewal; default 30 s. */
  leaseMs?: number;
  /** How often an idle worker looks for due jobs another process enqueued; default 250 ms. */
  pollMs?: number;
  /** How often the scheduler looks for due periodic tasks; default 1 s. */
  schedulerPollMs?: number;
}

/**
 * The embedded queue: jobs are rows in the application database (SQLite by default, PostgreSQL
 * works too), so a one-machine deployment needs no other service and jobs survive crashes and
 * restarts with the rest of the data. Workers lease jobs; see jobs.repo.ts for the fencing.
 */
export class DatabaseQueue implements QueueBackend, WorkerOwner {
  readonly kind = 'database' as const;
  readonly database: Database;
  readonly leaseMs: number;
  readonly pollMs: number;
  private readonly schedulerPollMs: number;
  private readonly workers = new Set<DatabaseWorker>();
  /** Wakes idle workers of a queue when this process enqueues into it. */
  readonly wakeups = new EventEmitter();
  private readonly events = new EventEmitter();
  private schedulerTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(database: Database, options: DatabaseQueueOptions = {}) {
    this.database = database;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 250;
    this.schedulerPollMs = options.schedulerPollMs ?? 1000;
    this.wakeups.setMaxListeners(0);
  }

  async enqueue<P>(
    queue: string,
    name: string,
    payload: P,
    options?: EnqueueOptions,
  ): Promise<EnqueueResult> {
    const [result] = await this.enqueueBulk(queue, [{ name, payload, options }]);
    return result!;
  }

  async enqueueBulk<P>(queue: string, specs: JobSpec<P>[]): Promise<EnqueueResult[]> {
    if (specs.length === 0) return [];
    const now = Date.now();
    const rows = specs.map(({ name, payload, options = {} }) => ({
      queue,
      name,
      payload: JSON.stringify(payload ?? null),
      priority: options.priority ?? DEFAULT_PRIORITY,
      runAt: now + Math.max(0, options.delayMs ?? 0),
      maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      backoffMs: options.backoffMs ?? DEFAULT_BACKOFF_MS,
      dedupeKey: options.dedupeKey ?? null,
    }));
    const results = await jobs.insertJobs(this.database, rows, now);
    this.wakeups.emit(queue);
    return results.map(({ id, deduplicated }) => ({ id: String(id), deduplicated }));
  }

  work(queue: string, handler: JobHandler, options: WorkerOptions = {}): Worker {
    if (this.closed) throw new Error('queue is closed');
    const worker = new DatabaseWorker(this, queue, handler, options.concurrency ?? 1, (event) =>
      this.events.emit('event', event),
    );
    this.workers.add(worker);
    worker.start();
    this.startScheduler();
    return {
      close: async (closeOptions) => {
        await worker.close(closeOptions?.timeoutMs);
        this.workers.delete(worker);
      },
    };
  }

  async pause(queue: string): Promise<void> {
    await jobs.setPaused(this.database, queue, true, Date.now());
  }

  async resume(queue: string): Promise<void> {
    await jobs.setPaused(this.database, queue, false, Date.now());
    this.wakeups.emit(queue);
  }

  isPaused(queue: string): Promise<boolean> {
    return jobs.isPaused(this.database, queue);
  }

  counts(queue: string): Promise<JobCounts> {
    return jobs.countJobs(this.database, queue, Date.now());
  }

  async deadJobs(queue: string, limit = 100): Promise<DeadJob[]> {
    const rows = await jobs.listDeadJobs(this.database, queue, limit);
    return rows.map((row) => ({
      id: String(row.id),
      name: row.name,
      payload: JSON.parse(row.payload) as unknown,
      attempts: row.attempts,
      error: row.last_error,
      failedAt: row.finished_at,
    }));
  }

  async retryDead(queue: string, id: string): Promise<boolean> {
    const revived = await jobs.reviveDeadJob(this.database, queue, Number(id), Date.now());
    if (revived) this.wakeups.emit(queue);
    return revived;
  }

  async schedule(task: ScheduledTask): Promise<void> {
    const now = Date.now();
    const timezone = task.timezone ?? 'UTC';
    await schedules.upsertSchedule(this.database, {
      id: task.id,
      cron: task.cron,
      timezone,
      queue: task.queue,
      name: task.name,
      payload: JSON.stringify(task.payload ?? null),
      next_run_at: nextCronTick(task.cron, timezone, now),
      updated_at: now,
    });
  }

  unschedule(id: string): Promise<void> {
    return schedules.deleteSchedule(this.database, id);
  }

  onEvent(listener: (event: QueueEvent) => void): void {
    this.events.on('event', listener);
  }

  /** Prunes finished jobs: completed ones after `keepCompletedMs`, dead ones after `keepDeadMs`. */
  prune(keepCompletedMs: number, keepDeadMs: number): Promise<number> {
    const now = Date.now();
    return jobs.pruneFinishedJobs(this.database, now - keepCompletedMs, now - keepDeadMs);
  }

  async close(options?: { timeoutMs?: number }): Promise<void> {
    this.closed = true;
    clearTimeout(this.schedulerTimer);
    this.schedulerTimer = undefined;
    await Promise.all([...this.workers].map((worker) => worker.close(options?.timeoutMs)));
    this.workers.clear();
  }

  /** Periodic tasks are fired by processes that run workers; several may run it safely. */
  private startScheduler(): void {
    if (this.schedulerTimer || this.closed) return;
    const tick = async () => {
      try {
        await this.fireDueSchedules();
      } catch (error) {
        this.events.emit('schedulerError', error);
      }
      if (!this.closed) this.schedulerTimer = setTimeout(tick, this.schedulerPollMs);
    };
    this.schedulerTimer = setTimeout(tick, 0);
  }

  private async fireDueSchedules(): Promise<void> {
    const now = Date.now();
    for (const row of await schedules.dueSchedules(this.database, now)) {
      const next = nextCronTick(row.cron, row.timezone, now);
      if (await schedules.fireSchedule(this.database, row, next, now)) this.wakeups.emit(row.queue);
    }
  }

  newLeaseToken(): string {
    return randomUUID();
  }
}
