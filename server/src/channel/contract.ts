/**
 * The contract every sending channel implements: email in mta/, SMS in sms/. A channel keeps its
 * own work table, steps and transport; what they share is this shape:
 *
 *   claim    the store hands a worker a batch of due items under a lease (work-loop.ts)
 *   steps    each item runs through the channel's named steps until one ends it (steps.ts)
 *   outcome  the ending is written by the store, fenced by the lease, in one transaction with
 *            its log row and event
 *   retry    a deferred item gets its next attempt from the channel's retry schedule, or gives
 *            up when its lifetime is over
 *
 * The loop (WorkLoop) is the same for every channel; the steps, the store's SQL and the carrier
 * or MTA behind the steps are the channel's own.
 */

/** The durable queue of one channel: its work table, claimed under leases. */
export interface ChannelStore<Work extends { id: number }, Outcome> {
  /** Takes up to `limit` due items (and items whose lease ran out) for `owner`, leased until now + leaseMs. */
  claim(owner: string, limit: number, now: number, leaseMs: number): Promise<Work[]>;
  /** Pushes the lease of the items this owner still works on; answers how many. */
  renew(owner: string, ids: number[], now: number, leaseMs: number): Promise<number>;
  /** Hands claimed items back untouched (the batch could not be started). */
  releaseIds(owner: string, ids: number[]): Promise<void>;
  /** Hands every item of this owner back (shutdown). */
  release(owner: string): Promise<void>;
  /**
   * Records outcomes in one transaction: each item's status, a log row and, for a final status,
   * its event. Answers, per record, whether it was written (false: the owner no longer held it).
   */
  writeOutcomes(records: Outcome[]): Promise<boolean[]>;
  close(): Promise<void>;
}

/** What the loop drives: a channel's steps over claimed items. */
export interface ChannelPipeline<Work> {
  /** Loads what a claimed batch needs in one go (message bodies, list checks). */
  prepare(batch: Work[]): Promise<void>;
  /** Runs one item through the steps. Never rejects: every end is a recorded outcome, or the item is left to its lease. */
  process(item: Work, owner: string): Promise<void>;
  /** Waits until every outcome handed to the store is written. */
  flush(): Promise<void>;
}

/** When a deferred item is tried again; `expired` once its lifetime is over. */
export type RetryDecision = { kind: 'retry'; at: Date; delayMs: number } | { kind: 'expired' };

export type RetrySchedule = (failedAttempts: number, queuedAt: Date, now: Date) => RetryDecision;
