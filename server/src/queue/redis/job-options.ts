import { randomUUID } from 'node:crypto';
import { Job as BullJob, type JobSchedulerTemplateOptions, type JobsOptions, type MinimalJob } from 'bullmq';
import {
  backoffDelay,
  DEFAULT_BACKOFF_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_PRIORITY,
  type EnqueueOptions,
} from '../queue.ts';

/**
 * How the contract's job options map onto BullMQ's. Every Herald job is a prioritized BullMQ
 * job (priority ≥ 1), so BullMQ's per-queue priority counter keeps equal priorities FIFO. Ids
 * are ours (UUIDs): BullMQ returns the surviving job's id when a deduplication id suppresses an
 * add, so a returned id that differs from the one we chose means "deduplicated".
 *
 * Attempts are counted as BullMQ's attemptsStarted (runs begun, including runs whose worker
 * died), not attemptsMade (failures), because the contract counts a lost lease as an attempt;
 * the backoff strategy is ours for the same reason.
 */

export const BACKOFF_TYPE = 'herald-exponential';
export const LEASE_EXPIRED = 'lease expired: the worker holding the job stopped';

const PRIORITY_LIMIT = 2_097_151;
const KEEP_COMPLETED = { age: 24 * 60 * 60, count: 100_000 };

export interface ScheduledPayload {
  payload: unknown;
}

export function jobOptions(options: EnqueueOptions = {}): JobsOptions & { jobId: string } {
  return {
    ...templateOptions(options),
    jobId: randomUUID(),
    delay: Math.max(0, options.delayMs ?? 0),
    ...(options.dedupeKey === undefined ? {} : { deduplication: { id: options.dedupeKey } }),
  };
}

export function templateOptions(options: EnqueueOptions = {}): JobSchedulerTemplateOptions {
  const priority = Math.round(options.priority ?? DEFAULT_PRIORITY);
  return {
    priority: Math.min(PRIORITY_LIMIT, Math.max(1, priority)),
    attempts: Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS),
    backoff: { type: BACKOFF_TYPE, delay: options.backoffMs ?? DEFAULT_BACKOFF_MS },
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: false,
  };
}

export function maxAttemptsOf(job: BullJob): number {
  return job.opts.attempts ?? DEFAULT_MAX_ATTEMPTS;
}

/** Attempt number of the current (or last) run, never above maxAttempts. */
export function attemptOf(job: BullJob): number {
  return Math.min(Math.max(1, job.attemptsStarted), maxAttemptsOf(job));
}

/** BullMQ turns a null scheduler template payload into {}, so scheduled payloads travel wrapped. */
export function payloadOf(job: BullJob): unknown {
  if (!job.repeatJobKey) return job.data;
  const data = job.data as Partial<ScheduledPayload> | null;
  return data?.payload ?? null;
}

export function backoffStrategy(
  attemptsMade: number,
  _type?: string,
  _error?: Error,
  job?: MinimalJob,
): number {
  const backoff = job?.opts.backoff;
  const base =
    typeof backoff === 'object' ? (backoff.delay ?? DEFAULT_BACKOFF_MS) : (backoff ?? DEFAULT_BACKOFF_MS);
  const attempt = job instanceof BullJob ? Math.max(job.attemptsStarted, attemptsMade) : attemptsMade;
  return backoffDelay(base, attempt);
}
