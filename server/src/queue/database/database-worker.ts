import type { EventEmitter } from 'node:events';
import type { Database } from '../../db/database.ts';
import { backoffDelay, type JobHandler, PermanentJobError, type QueueEvent } from '../queue.ts';
import * as jobs from './jobs.repo.ts';

/**
 * What a worker needs of the queue that started it (DatabaseQueue). Declared here, not imported,
 * so the queue, which starts workers, is not imported back by them.
 */
export interface WorkerOwner {
  readonly database: Database;
  readonly leaseMs: number;
  readonly pollMs: number;
  /** Emits a queue's name when this process enqueued into it. */
  readonly wakeups: EventEmitter;
  newLeaseToken(): string;
}

interface Running {
  id: number;
  token: string;
  controller: AbortController;
  done: Promise<void>;
}

const DEFAULT_CLOSE_TIMEOUT_MS = 30_000;

/**
 * One worker: a loop that leases due jobs up to its concurrency, runs them, and records each
 * outcome with the lease token it was given. A timer renews the leases of running jobs, so a
 * lease only runs out when this process stops renewing it (it died or hung).
 */
export class DatabaseWorker {
  private readonly owner: WorkerOwner;
  private readonly queue: string;
  private readonly handler: JobHandler;
  private readonly concurrency: number;
  private readonly emit: (event: QueueEvent) => void;
  /** A claim that failed (database away): reported, then retried on the next poll. */
  onClaimError: (error: unknown) => void = () => {};
  private readonly running = new Map<number, Running>();
  private closing = false;
  private loopDone: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private lastRecovery = 0;
  private readonly onWakeup = () => this.kick();

  constructor(
    owner: WorkerOwner,
    queue: string,
    handler: JobHandler,
    concurrency: number,
    emit: (event: QueueEvent) => void,
  ) {
    this.owner = owner;
    this.queue = queue;
    this.handler = handler;
    this.concurrency = Math.max(1, concurrency);
    this.emit = emit;
  }

  start(): void {
    this.owner.wakeups.on(this.queue, this.onWakeup);
    this.renewTimer = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.owner.leaseMs / 3)));
    this.loopDone = this.loop();
  }

  async close(timeoutMs = DEFAULT_CLOSE_TIMEOUT_MS): Promise<void> {
    if (!this.closing) {
      this.closing = true;
      this.owner.wakeups.off(this.queue, this.onWakeup);
      this.kick();
    }
    await this.loopDone;
    const inFlight = [...this.running.values()];
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      Promise.all(inFlight.map((r) => r.done)).then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      const left = [...this.running.values()];
      for (const r of left) r.controller.abort(new Error('worker shutting down'));
      await jobs.releaseJobs(
        this.owner.database,
        left.map((r) => r.token),
        left.map((r) => r.id),
      );
      this.running.clear();
    }
    clearInterval(this.renewTimer);
  }

  private kick(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async loop(): Promise<void> {
    while (!this.closing) {
      let claimed = 0;
      try {
        claimed = await this.claimAndStart();
      } catch (error) {
        this.onClaimError(error);
      }
      if (this.closing) break;
      if (claimed > 0 && this.running.size < this.concurrency) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.wake = undefined;
          resolve();
        }, this.owner.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private async claimAndStart(): Promise<number> {
    const { database, leaseMs } = this.owner;
    const now = Date.now();
    if (now - this.lastRecovery >= Math.min(leaseMs, 5000)) {
      this.lastRecovery = now;
      await jobs.recoverExpiredLeases(database, this.queue, now);
    }
    const free = this.concurrency - this.running.size;
    if (free <= 0) return 0;
    if (await jobs.isPaused(database, this.queue)) return 0;
    const token = this.owner.newLeaseToken();
    const claimed = await jobs.claimJobs(database, this.queue, free, token, now, now + leaseMs);
    for (const row of claimed) this.run(row, token);
    return claimed.length;
  }

  private run(row: jobs.ClaimedJob, token: string): void {
    const controller = new AbortController();
    const entry: Running = { id: row.id, token, controller, done: Promise.resolve() };
    this.running.set(row.id, entry);
    entry.done = this.execute(row, token, controller.signal).finally(() => {
      if (this.running.get(row.id) === entry) this.running.delete(row.id);
      this.kick();
    });
  }

  private async execute(row: jobs.ClaimedJob, token: string, signal: AbortSignal): Promise<void> {
    const { database } = this.owner;
    const started = Date.now();
    const job = {
      id: String(row.id),
      queue: this.queue,
      name: row.name,
      payload: JSON.parse(row.payload) as unknown,
      attempt: row.attempts,
      maxAttempts: row.max_attempts,
    };
    try {
      await this.handler(job, signal);
    } catch (error) {
      if (signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      const now = Date.now();
      if (error instanceof PermanentJobError || row.attempts >= row.max_attempts) {
        if (await jobs.killJob(database, row.id, token, message, now)) {
          this.emit({
            type: 'dead',
            queue: this.queue,
            jobId: job.id,
            name: row.name,
            attempt: row.attempts,
            error: message,
          });
        }
      } else {
        const runAt = now + backoffDelay(row.backoff_ms, row.attempts);
        if (await jobs.retryJob(database, row.id, token, runAt, message)) {
          this.emit({
            type: 'retrying',
            queue: this.queue,
            jobId: job.id,
            name: row.name,
            attempt: row.attempts,
            error: message,
          });
        }
      }
      return;
    }
    if (signal.aborted) return;
    if (await jobs.completeJob(database, row.id, token, Date.now())) {
      this.emit({
        type: 'completed',
        queue: this.queue,
        jobId: job.id,
        name: row.name,
        durationMs: Date.now() - started,
      });
    }
  }

  private async renew(): Promise<void> {
    if (this.running.size === 0) return;
    const tokens = [...new Set([...this.running.values()].map((r) => r.token))];
    try {
      await jobs.renewLeases(this.owner.database, tokens, Date.now() + this.owner.leaseMs);
    } catch {
      // A failed renewal is retried on the next tick; if the database stays away the lease
      // runs out and another worker takes the job over, which is the safe outcome.
    }
  }
}
