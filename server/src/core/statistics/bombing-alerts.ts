import type { BombingAlerts } from '@herald/shared';
import { addDays, statDay, statHour } from '@herald/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { busiestRecipients, domainRequestsInHours, sumRollup } from './statistics.repo.ts';

/**
 * The anti-bombing panel's data (console-spec §2, dashboard): who is being asked for unusually
 * often, the sign of a form being abused to flood an address or of a runaway loop.
 * - An address with at least ADDRESS_MIN requests in the last hour (read from the event log's
 *   request events of that hour, by its account/kind/time index: one hour is cheap).
 * - A receiving domain whose requests in the current and previous hour reach DOMAIN_MIN and
 *   DOMAIN_FACTOR times its average for two hours over the 7 days before (from the rollups).
 */
export const ADDRESS_MIN = 10;
export const DOMAIN_MIN = 100;
export const DOMAIN_FACTOR = 5;
const HOUR_MS = 3_600_000;

export async function bombingAlerts(db: Kysely<DB>, accountId: number, now: number): Promise<BombingAlerts> {
  const today = statDay(now);
  const previous = now - HOUR_MS;
  const [addresses, recent, week] = await Promise.all([
    busiestRecipients(db, accountId, now - HOUR_MS, ADDRESS_MIN, 20),
    domainRequestsInHours(
      db,
      accountId,
      { day: today, hour: statHour(now) },
      { day: statDay(previous), hour: statHour(previous) },
    ),
    sumRollup(
      db,
      'stat_domain_days',
      accountId,
      { from: addDays(today, -7), to: addDays(today, -1) },
      ['recipient_domain'],
      ['requested'],
    ),
  ]);
  const usualOf = new Map(
    week.map((r) => [String(r.recipient_domain), (Number(r.requested) / (7 * 24)) * 2]),
  );
  const domains = recent
    .map((r) => ({
      domain: r.recipient_domain,
      requests: Number(r.requested),
      usual: Math.round(usualOf.get(r.recipient_domain) ?? 0),
    }))
    .filter((d) => d.requests >= DOMAIN_MIN && d.requests >= DOMAIN_FACTOR * d.usual)
    .sort((a, b) => b.requests - a.requests)
    .slice(0, 20);
  return { addresses, domains };
}
