/**
 * The queue contract. Background work (delivering a message, pushing a webhook, a periodic
 * task) goes through this one interface so that a single-machine deployment can run on the
 * embedded database queue and a larger one on BullMQ/Redis without any caller noticing.
 *
 * Semantics both backends keep (the contract suite in server/test/queue checks them):
 * - at-least-once: a job is handed to one live worker at a time; a job held by a worker that
 *   died comes back once its lease (BullMQ: lock) expires, and counts as an attempt;
 * - completion is fenced: only the holder of the current lease can complete a job, so a job
 *   is completed at most once even when a stale worker finishes late;
 * - a failing job is retried with exponential backoff (backoffMs × 2^(attempt−1)) and is
 *   dead-lettered after maxAttempts; a PermanentJobError dead-letters at once;
 * - lower `priority` numbers run first; equal priorities run in enqueue order;
 * - a dedupe key suppresses a second job while the first is waiting, delayed or active.
 */

export const JOB_STATES = ['waiting', 'delayed', 'active', 'completed', 'dead'] as const;
export type JobState = (typeof JOB_STATES)[number];
export type JobCounts = Record<JobState, number>;

export const DEFAULT_PRIORITY = 100;
export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_BACKOFF_MS = 1000;

export interface EnqueueOptions {
  /** Run no earlier than this many milliseconds from now. */
  delayMs?: number;
  /** 1 (most urgent) to 1,000,000; default 100. */
  priority?: number;
  /** While a job with this key is waiting, delayed or active, enqueueing another returns it. */
  dedupeKey?: string;
  /** Attempts before the job is dead-lettered; default 5. */
  maxAttempts?: number;
  /** Base of the exponential backoff between attempts; default 1000 ms. */
  backoffMs?: number;
}

export interface JobSpec<P = unknown> {
  name: string;
  payload: P;
  options?: EnqueueOptions;
}

export interface EnqueueResult {
  id: string;
  /** True when a pending job with the same dedupe key already existed and was returned. */
  deduplicated: boolean;
}

export interface Job<P = unknown> {
  id: string;
  queue: string;
  name: string;
  payload: P;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
}

/** Throw from a handler to dead-letter the job without further attempts. */
export class PermanentJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

export type JobHandler = (job: Job, signal: AbortSignal) => Promise<void>;

export interface WorkerOptions {
  /** Jobs run at once by this worker; default 1. */
  concurrency?: number;
}

export interface Worker {
  /**
   * Stops taking jobs, waits up to `timeoutMs` (default 30 s) for running handlers, then aborts
   * the rest and hands their jobs straight back to the queue without counting the attempt.
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

export interface ScheduledTask {
  /** Stable id; upserting the same id replaces the schedule. */
  id: string;
  /** Five-field cron pattern (minute hour day-of-month month day-of-week), or six with seconds. */
  cron: string;
  queue: string;
  name: string;
  payload?: unknown;
  /** IANA time zone of the pattern; default UTC. */
  timezone?: string;
}

export interface DeadJob {
  id: string;
  name: string;
  payload: unknown;
  attempts: number;
  error: string | null;
  failedAt: number | null;
}

export type QueueEvent =
  | { type: 'completed'; queue: string; jobId: string; name: string; durationMs: number }
  | { type: 'retrying'; queue: string; jobId: string; name: string; attempt: number; error: string }
  | { type: 'dead'; queue: string; jobId: string; name: string; attempt: number; error: string };

export interface QueueBackend {
  readonly kind: 'database' | 'redis';
  enqueue<P>(queue: string, name: string, payload: P, options?: EnqueueOptions): Promise<EnqueueResult>;
  enqueueBulk<P>(queue: string, jobs: JobSpec<P>[]): Promise<EnqueueResult[]>;
  work(queue: string, handler: JobHandler, options?: WorkerOptions): Worker;
  pause(queue: string): Promise<void>;
  resume(queue: string): Promise<void>;
  isPaused(queue: string): Promise<boolean>;
  counts(queue: string): Promise<JobCounts>;
  deadJobs(queue: string, limit?: number): Promise<DeadJob[]>;
  /** Puts a dead job back to waiting with a fresh set of attempts. */
  retryDead(queue: string, id: string): Promise<boolean>;
  /** Creates or replaces a periodic task. Each tick enqueues one job, cluster-wide. */
  schedule(task: ScheduledTask): Promise<void>;
  unschedule(id: string): Promise<void>;
  /** Listens to job outcomes in this process (metrics, logs). */
  onEvent(listener: (event: QueueEvent) => void): void;
  /** Closes workers (gracefully, see Worker.close), the scheduler and connections. */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

export function backoffDelay(backoffMs: number, attempt: number): number {
  return backoffMs * 2 ** Math.max(0, attempt - 1);
}

export function emptyCounts(): JobCounts {
  return { waiting: 0, delayed: 0, active: 0, completed: 0, dead: 0 };
}
