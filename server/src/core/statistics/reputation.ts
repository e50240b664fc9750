import { percent, REPUTATION_DEFAULT_SCORE, type StatCounters } from '@herald/shared';

/**
 * The reputation score (0–100), from the account's figures of the last 7 whole days (Asia/Shanghai,
 * ending yesterday). Reputation falls with invalid addresses, spam reports and unsubscribes and
 * rises with engagement (SendCloud guide/base.md); partner services need at least 60.
 *
 *   raw   = 90
 *         − 2   × invalid%      (invalid / requested, at most −50)
 *         − 0.5 × softBounce%   (soft bounces / requested, at most −10)
 *         − 20  × spam%         (spam reports / delivered, at most −40)
 *         − 2   × unsubscribe%  (unsubscribes / delivered, at most −10)
 *         + min(10, uniqueOpen% / 4 + uniqueClick%)   (of delivered)
 *   score = round(80 + (raw − 80) × min(1, requested / 100)), clamped to 0–100
 *
 * A clean sender without tracked engagement scores 90; opens and clicks lift it to 100. The last
 * line weighs the figures by volume: an account that sent nothing keeps the default of 80, and a
 * handful of mails moves the score only part of the way, so one bounce of three mails does not
 * sink a new account.
 */
export const REPUTATION_WINDOW_DAYS = 7;
const FULL_WEIGHT_REQUESTS = 100;

export function reputationScore(c: StatCounters): number {
  if (c.requested <= 0) return REPUTATION_DEFAULT_SCORE;
  const raw =
    90 -
    Math.min(50, 2 * percent(c.invalid, c.requested)) -
    Math.min(10, 0.5 * percent(c.softBounced, c.requested)) -
    Math.min(40, 20 * percent(c.spamReported, c.delivered)) -
    Math.min(10, 2 * percent(c.unsubscribed, c.delivered)) +
    Math.min(10, percent(c.uniqueOpened, c.delivered) / 4 + percent(c.uniqueClicked, c.delivered));
  const weight = Math.min(1, c.requested / FULL_WEIGHT_REQUESTS);
  const score = Math.round(REPUTATION_DEFAULT_SCORE + (raw - REPUTATION_DEFAULT_SCORE) * weight);
  return Math.max(0, Math.min(100, score));
}
