import { type Job as BullJob, Worker as BullWorker, UnrecoverableError, WaitingError } from 'bullmq';
import type { Redis } from 'ioredis';
import { type Job, type JobHandler, PermanentJobError, type QueueEvent } from '../queue.ts';
import { attemptOf, backoffStrategy, LEASE_EXPIRED, maxAttemptsOf, payloadOf } from './job-options.ts';

export interface RedisWorkerOptions {
  queue: string;
  prefix: string;
  leaseMs: number;
  concurrency: number;
  /** Shared by the workers of a RedisQueue; BullMQ duplicates it for each blocking fetch. */
  connection: Redis;
  handler: JobHandler;
  emit: (event: QueueEvent) => void;
  onError: (error: unknown) => void;
}

const DEFAULT_CLOSE_TIMEOUT_MS = 30_000;
const HAND_BACK_TIMEOUT_MS = 5_000;
/** Crash stalls must never fail a job by themselves; attempts are enforced by `process`. */
const UNLIMITED_STALLS = 1_000_000_000;
const ABORTED = Symbol('aborted');

/**
 * Takes back the attempt a run counted when it is handed back unfinished, but only while the
 * run still holds the job's lock (so never from a run another worker has started since).
 */
const UNCOUNT_ATTEMPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] and tonumber(redis.call('HGET', KEYS[2], 'ats') or '0') > 0 then
  return redis.call('HINCRBY', KEYS[2], 'ats', -1)
end
return -1`;

type Outcome = { ok: true } | { ok: false; error: unknown } | typeof ABORTED;

/**
 * One BullMQ Worker behind the contract's Worker. BullMQ does the fetching, lock renewal,
 * stalled-job recovery (lockDuration = leaseMs) and token-fenced completion; this class maps
 * handler outcomes onto BullMQ's (retry, or UnrecoverableError to dead-letter), turns BullMQ's
 * confirmed 'completed'/'failed' into QueueEvents, and on a forced close aborts the handlers
 * and hands their jobs straight back instead of waiting for their locks to expire.
 */
export class RedisWorker {
  private readonly options: RedisWorkerOptions;
  private readonly bull: BullWorker<unknown, void>;
  private readonly running = new Map<string, AbortController>();
  private closing: Promise<void> | undefined;

  constructor(options: RedisWorkerOptions) {
    this.options = options;
    this.bull = new BullWorker<unknown, void>(options.queue, (job, token) => this.process(job, token), {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: Math.max(1, options.concurrency),
      lockDuration: options.leaseMs,
      stalledInterval: options.leaseMs,
      maxStalledCount: UNLIMITED_STALLS,
      settings: { backoffStrategy },
    });
    this.bull.on('error', options.onError);
    this.bull.on('completed', (job) => this.completed(job));
    this.bull.on('failed', (job, error) => {
      if (job) this.failed(job, error);
    });
  }

  close(timeoutMs = DEFAULT_CLOSE_TIMEOUT_MS): Promise<void> {
    this.closing ??= this.shutdown(timeoutMs);
    return this.closing;
  }

  private async shutdown(timeoutMs: number): Promise<void> {
    const graceful = this.bull.close();
    if (await settlesWithin(graceful, timeoutMs)) return;
    for (const controller of this.running.values()) controller.abort(new Error('worker shutting down'));
    await settlesWithin(graceful, HAND_BACK_TIMEOUT_MS);
  }

  private async process(bullJob: BullJob<unknown, void>, token: string | undefined): Promise<void> {
    const maxAttempts = maxAttemptsOf(bullJob);
    if (bullJob.attemptsStarted > maxAttempts) throw new UnrecoverableError(LEASE_EXPIRED);
    const job: Job = {
      id: bullJob.id ?? '',
      queue: this.options.queue,
      name: bullJob.name,
      payload: payloadOf(bullJob),
      attempt: bullJob.attemptsStarted,
      maxAttempts,
    };
    const controller = new AbortController();
    const key = token ?? job.id;
    this.running.set(key, controller);
    let outcome: Outcome;
    try {
      outcome = await Promise.race([
        (async () => this.options.handler(job, controller.signal))().then(
          (): Outcome => ({ ok: true }),
          (error: unknown): Outcome => ({ ok: false, error }),
        ),
        new Promise<Outcome>((resolve) =>
          controller.signal.addEventListener('abort', () => resolve(ABORTED), { once: true }),
        ),
      ]);
    } finally {
      this.running.delete(key);
    }
    if (outcome === ABORTED) {
      await this.handBack(bullJob, token);
      throw new WaitingError();
    }
    if (outcome.ok) return;
    const { error } = outcome;
    const message = error instanceof Error ? error.message : String(error);
    const final = error instanceof PermanentJobError || job.attempt >= maxAttempts;
    if (final) throw new UnrecoverableError(message);
    const retryable = new Error(message, { cause: error });
    if (error instanceof Error && error.stack) retryable.stack = error.stack;
    throw retryable;
  }

  private async handBack(bullJob: BullJob<unknown, void>, token: string | undefined): Promise<void> {
    if (!token || !bullJob.id) return;
    const jobKey = this.bull.toKey(bullJob.id);
    try {
      await this.options.connection.eval(UNCOUNT_ATTEMPT, 2, `${jobKey}:lock`, jobKey, token);
      await bullJob.moveToWait(token);
    } catch (error) {
      this.options.onError(error);
    }
  }

  private completed(job: BullJob<unknown, void>): void {
    const now = Date.now();
    this.options.emit({
      type: 'completed',
      queue: this.options.queue,
      jobId: job.id ?? '',
      name: job.name,
      durationMs: Math.max(0, (job.finishedOn ?? now) - (job.processedOn ?? now)),
    });
  }

  private failed(job: BullJob<unknown, void>, error: Error): void {
    const dead = error.name === 'UnrecoverableError' || job.attemptsMade >= maxAttemptsOf(job);
    this.options.emit({
      type: dead ? 'dead' : 'retrying',
      queue: this.options.queue,
      jobId: job.id ?? '',
      name: job.name,
      attempt: attemptOf(job),
      error: error.message,
    });
  }
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  return settled;
}
