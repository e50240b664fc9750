import { dedicatedIpMonthFee } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { postEntry } from '../ledger/ledger.repo.ts';
import { activeDaysIn, monthDays, monthKeyOf, nextMonth, previousMonth } from './billing-calendar.ts';
import * as repo from './dedicated-ips.repo.ts';

const BATCH = 100;

/**
 * Monthly fees of dedicated IPs (product-spec §9 "first-time service fees prorated by day,
 * deducted on the 1st of next month; billing on the 1st"). Every month that has ended (Beijing
 * time) is billed for each purchase whose A record was seen: the days it was active that month,
 * a whole month at the purchase's monthly price (500 yuan), a part of one rounded up to the fen.
 * One `charge` entry per purchase and month, keyed `svc:dedicated-ip:<purchase id>:<YYYY-MM>`,
 * posted with the purchase's `billed_through` in one transaction: a re-run, or two workers at
 * once, post nothing twice (the ledger refuses a key twice), and a worker that was down on the
 * 1st catches up on its next run. A voided purchase is never billed.
 */
export async function billDue(
  database: Database,
  now: number,
  onCharged: (accountId: number) => void,
): Promise<number> {
  const through = previousMonth(monthKeyOf(now));
  let posted = 0;
  let afterId = 0;
  for (;;) {
    const rows = await repo.dueForBilling(database, through, afterId, BATCH);
    if (rows.length === 0) return posted;
    for (const row of rows) {
      afterId = Number(row.id);
      const count = await billPurchase(database, row, through, now);
      if (count > 0) onCharged(Number(row.account_id));
      posted += count;
    }
  }
}

async function billPurchase(
  database: Database,
  row: repo.PurchaseRow,
  through: string,
  now: number,
): Promise<number> {
  const startsAt = Number(row.starts_at);
  const endsAt = Number(row.ends_at ?? row.starts_at);
  const first = row.billed_through === null ? monthKeyOf(startsAt) : nextMonth(row.billed_through);
  return database.db.transaction().execute(async (trx) => {
    let posted = 0;
    for (let month = first; month <= through; month = nextMonth(month)) {
      const days = activeDaysIn(month, startsAt, endsAt);
      const { days: inMonth } = monthDays(month);
      const fee = dedicatedIpMonthFee(days, inMonth, Number(row.price_month_fen));
      if (fee === 0) continue;
      const fresh = await postEntry(trx, {
        accountId: Number(row.account_id),
        kind: 'charge',
        amountFen: -fee,
        reason: `Dedicated IP ${row.address} (${row.domain_name}) ${month}`,
        detail: JSON.stringify({
          code: 'dedicated_ip',
          purchaseId: Number(row.id),
          address: row.address,
          domain: row.domain_name,
          month,
          days,
          monthDays: inMonth,
        }),
        idempotencyKey: `svc:dedicated-ip:${row.id}:${month}`,
        at: now,
      });
      if (fresh) posted++;
    }
    await repo.setBilledThrough(trx, Number(row.id), through, now);
    return posted;
  });
}
