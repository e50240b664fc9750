import { statDay } from '@herald/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { addDayUsage, addUse, drawablePackages } from './packages.repo.ts';

/** Billable units of one outcome: whose, of which price code, when. */
export interface PackageDraw {
  accountId: number;
  code: string;
  at: number;
  units: number;
}

/**
 * Benefit packages are consumed before the balance (issue 18). Charging calls this inside its
 * batch transaction, before it accrues money: each outcome's units are taken, in event order, from
 * the account's packages of that price code that were valid when the outcome happened (earliest
 * expiry first), as far as their quotas go. The packages' `used` and the per-day `package_usage`
 * rows are written in the same transaction as the charging cursor, so a killed batch rolls back
 * its draws with its charges and the rerun draws them once.
 *
 * Answers, for each draw, the units left to charge in money. Charging batches of one price code
 * are serialised by their cursor row, so the quota guard in `addUse` only fails if something else
 * drew at once; then the batch throws and is retried rather than over-drawing.
 */
export async function drawFromPackages(
  trx: Kysely<DB>,
  draws: readonly PackageDraw[],
  now: number,
): Promise<number[]> {
  const left = draws.map((d) => d.units);
  if (draws.length === 0) return left;
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const d of draws) {
    from = Math.min(from, d.at);
    to = Math.max(to, d.at);
  }
  const packages = await drawablePackages(
    trx,
    [...new Set(draws.map((d) => d.accountId))],
    [...new Set(draws.map((d) => d.code))],
    from,
    to,
  );
  if (packages.length === 0) return left;

  const byKey = new Map<string, { id: number; startsAt: number; expiresAt: number; remaining: number }[]>();
  for (const p of packages) {
    const key = `${Number(p.account_id)}\u0000${p.type}`;
    const list = byKey.get(key) ?? [];
    list.push({
      id: Number(p.id),
      startsAt: Number(p.starts_at),
      expiresAt: Number(p.expires_at),
      remaining: Number(p.quota) - Number(p.used),
    });
    byKey.set(key, list);
  }
  const taken = new Map<number, { units: number; days: Map<string, number> }>();
  draws.forEach((d, i) => {
    const candidates = byKey.get(`${d.accountId}\u0000${d.code}`);
    if (!candidates) return;
    for (const p of candidates) {
      if (left[i] === 0) break;
      if (p.remaining === 0 || d.at < p.startsAt || d.at >= p.expiresAt) continue;
      const n = Math.min(p.remaining, left[i] as number);
      p.remaining -= n;
      left[i] = (left[i] as number) - n;
      const t = taken.get(p.id) ?? { units: 0, days: new Map<string, number>() };
      t.units += n;
      const day = statDay(d.at);
      t.days.set(day, (t.days.get(day) ?? 0) + n);
      taken.set(p.id, t);
    }
  });
  for (const [id, t] of taken) {
    if (!(await addUse(trx, id, t.units, now))) {
      throw new Error(`benefit package ${id} was drawn from concurrently; the batch is retried`);
    }
    for (const [day, units] of t.days) await addDayUsage(trx, id, day, units, now);
  }
  return left;
}
