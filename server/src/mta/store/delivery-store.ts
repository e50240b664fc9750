import type { ChannelStore } from '../../channel/contract.ts';
import type { AttemptOutcome } from '../../db/delivery-schema.ts';

/**
 * The email channel's store: message_recipients as the delivery queue, recipient_attempts as the
 * send log, mail_events for final outcomes. Two implementations keep the same rules:
 *  - KyselyDeliveryStore (kysely-delivery-store.ts): PostgreSQL, and SQLite in memory;
 *  - SqliteDeliveryStore (sqlite-delivery-store.ts): the embedded SQLite file, its writes on a
 *    thread of their own (sqlite-delivery.worker.ts) and the dot mark on the caller's thread.
 * One contract test suite (server/test/mta/delivery-store.contract.test.ts) runs the same cases
 * against both.
 *
 * Claims: a worker takes a batch of rows that are due (requested, deferred or held with
 * next_attempt_at ≤ now) or whose lease ran out (status `sending`, lease_expires_at < now: their
 * worker died), setting status `sending` and its own lease in the same statement. Due rows are
 * taken lane by lane (migration 0048): lane 0 (API, SMTP, console and system mail) first, lane 1
 * (list tasks) only for the room left, so mail sent while a million-member task waits goes out
 * on the next claim, ahead of the task's. Every later
 * write about a claimed row is fenced by `lease_owner`: a worker that lost its lease (it stalled
 * past the expiry and the row was claimed again) can no longer mark or record it.
 */
export interface ClaimedRecipient {
  id: number;
  account_id: number;
  message_id: number;
  rcpt_index: number;
  recipient: string;
  recipient_domain: string;
  kind: string;
  vars: string | null;
  attempts: number;
  created_at: number;
  dot_sent_at: number | null;
  dot_owner: string | null;
  mx_host: string | null;
  /** 0 transactional, 1 a list task's: lane 0 also goes first for a connection (DestinationPool). */
  lane: number;
}

/** The columns a claim returns, in ClaimedRecipient's order. */
export const CLAIMED_COLUMNS =
  'id, account_id, message_id, rcpt_index, recipient, recipient_domain, kind, vars, attempts, created_at, dot_sent_at, dot_owner, mx_host, lane';

/**
 * One stop of a recipient (STYLE principle 9): its status with a human reason, and a row of the
 * send log. Fenced by the lease owner.
 */
export interface OutcomeRecord {
  recipientId: number;
  accountId: number;
  /** The lease owner that must still hold the row; null for asynchronous bounces (no lease). */
  owner: string | null;
  status: AttemptOutcome;
  /** Attempts after this one (message_recipients.attempts); the send log's attempt number. */
  attempt: number;
  countsAsAttempt: boolean;
  at: number;
  nextAttemptAt: number | null;
  category: string | null;
  reason: string | null;
  subStatus: number | null;
  reply: string | null;
  mxHost: string | null;
  mxIp: string | null;
  /** The local address the mail left from (the deliver event's outIp). */
  outIp?: string | null;
  tls: boolean;
  durationMs: number | null;
}

export interface DeliveryStore extends ChannelStore<ClaimedRecipient, OutcomeRecord> {
  /**
   * The exactly-once mark, before the final dot: marks the rows this owner still holds (and that
   * it marked them), commits, and calls `writeDots` with them right behind the commit. `writeDots`
   * answers the rows whose dot is now in the kernel; the rest (no room yet, connection gone) have
   * their mark taken back, and the answer is the rows left marked. Between the commit and a dot's
   * write the process may die: the dot journal (pipeline/dot-journal.ts) is what tells the worker
   * that finds such a mark whether the dot went out.
   */
  markDotSent(
    owner: string,
    ids: number[],
    now: number,
    writeDots: (marked: Set<number>) => Set<number>,
  ): Promise<Set<number>>;
  /** Hands one row back (its transaction was abandoned before the dot). */
  releaseOne(owner: string, id: number): Promise<void>;
}

/** Database drivers may answer bigint columns as strings; the pipeline wants numbers. */
export function normalizeClaimed(row: ClaimedRecipient): ClaimedRecipient {
  return {
    ...row,
    id: Number(row.id),
    account_id: Number(row.account_id),
    message_id: Number(row.message_id),
    attempts: Number(row.attempts),
    lane: Number(row.lane),
    created_at: Number(row.created_at),
    dot_sent_at: row.dot_sent_at === null ? null : Number(row.dot_sent_at),
  };
}
