import type { Generated } from 'kysely';

/**
 * Row types of the delivery engine (migration 0017). The new columns of message_recipients are
 * declared on MessageRecipientsTable through DeliveryRecipientColumns (see message-schema.ts).
 */
export interface DeliveryRecipientColumns {
  /** The worker holding the row while its status is `sending`. */
  lease_owner: string | null;
  lease_expires_at: number | null;
  /** Committed right before the final "." of DATA: the exactly-once mark. */
  dot_sent_at: number | null;
  /** The worker that set dot_sent_at (migration 0027): whose dot journal knows if the dot went out. */
  dot_owner: string | null;
  /** SendCloud sub-status of the final outcome (401–409 invalid, 503–509 soft bounce). */
  sub_status: number | null;
  /** Invalid reason or soft-bounce class (product-spec §8), or the hold reason while held. */
  reason: string | null;
  /** The last remote reply or failure, as the send log shows it. */
  last_reply: string | null;
  delivered_at: number | null;
  mx_host: string | null;
}

export type AttemptOutcome = 'delivered' | 'deferred' | 'invalid' | 'soft_bounce' | 'held';

/** The send log: one row per attempt. */
export interface RecipientAttemptsTable {
  id: Generated<number>;
  recipient_id: number;
  account_id: number;
  /** 1 for the first attempt; asynchronous bounces and holds take the next number too. */
  attempt: number;
  at: number;
  outcome: AttemptOutcome;
  /** FailureCategory of a failure (classify.ts). */
  category: string | null;
  /** Invalid reason or soft-bounce class, or the hold reason. */
  reason: string | null;
  sub_status: number | null;
  reply: string | null;
  mx_host: string | null;
  mx_ip: string | null;
  tls: Generated<number>;
  duration_ms: number | null;
}
