import type { RetryDecision } from '../../channel/contract.ts';
import type { RetryPolicy } from '../../delivery-settings.ts';
import { type DeliveryOutcome, type FailureCategory, softBounce } from './classify.ts';

export type { RetryDecision, RetryPolicy };

/**
 * When a deferred recipient is tried again: 1 min after the first failure, then 2, 4, 8, 16,
 * 32, 64 minutes, then every 2 hours, until the message has been in the queue for its lifetime
 * (72 hours by default). The last try is placed at the end of the lifetime rather than skipped,
 * and a failure after that makes the recipient a soft bounce.
 */

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  firstDelayMs: 60_000,
  maxDelayMs: 2 * 60 * 60_000,
  lifetimeMs: 72 * 60 * 60_000,
};

/**
 * @param failedAttempts attempts made so far, all deferred (1 after the first failure)
 * @param queuedAt when the message was accepted; the lifetime counts from here
 */
export function nextRetry(
  failedAttempts: number,
  queuedAt: Date,
  now: Date,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): RetryDecision {
  const expiresAt = queuedAt.getTime() + policy.lifetimeMs;
  if (now.getTime() >= expiresAt) return { kind: 'expired' };
  const exponent = Math.min(Math.max(failedAttempts - 1, 0), 30);
  const delayMs = Math.min(policy.firstDelayMs * 2 ** exponent, policy.maxDelayMs);
  const at = Math.min(now.getTime() + delayMs, expiresAt);
  return { kind: 'retry', at: new Date(at), delayMs: at - now.getTime() };
}

/** The soft bounce a deferral becomes when its lifetime is over, with the last reply kept. */
export function expireDeferral(last: { category: FailureCategory; detail: string }): DeliveryOutcome {
  return softBounce(last.category, `gave up retrying: ${last.detail}`);
}
