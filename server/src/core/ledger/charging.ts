import { statDay } from '@herald/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { advanceCursor, lockCursor } from '../mail-events/mail-events.repo.ts';
import type { MailEvent } from '../mail-events/mail-events.service.ts';
import { drawFromPackages } from '../vouchers/package-draw.ts';
import * as repo from './charging.repo.ts';
import { postEntry } from './ledger.repo.ts';

/**
 * Charging by result. Two consumers read the event logs after their cursors (mail_event_cursors
 * rows `charging-mail` and `charging-sms`); each batch's accruals, charges and cursor advance
 * commit in one transaction, so a killed worker re-reads the batch and neither charges twice nor
 * skips.
 *
 * What is billed (paid customer accounts with money on the ledger only, see charging.repo.ts paidAccounts; the
 * free plan's quota is free): an email's
 * delivered, soft-bounce and invalid results, except invalid ones Herald held back itself (its
 * blacklist, 401, and unsubscribed addresses, 402), since they were never sent; an SMS on its
 * delivery receipt, per part for domestic and international, per message for voice and MMS.
 *
 * Rounding. Email is priced per thousand and "billed per thousand, rounded up" (product-spec §9).
 * Each outcome accrues its exact share in thousandths of a fen (a price of P fen per 1,000 mails
 * is P millifen a mail) into its (account, Asia/Shanghai day, price item) row, and each batch
 * charges the difference between ceil(accrued / 1000) and what was charged already. The day's
 * charges so far therefore always add up to the day's exact amount rounded up to the fen: never
 * more than one fen per day and item above the exact price, never below it, and the balance
 * follows sending within a batch instead of waiting for the day's close. A price change applies
 * to outcomes charged after it.
 *
 * Benefit packages come first (core/vouchers/package-draw.ts): a charged account's units of a
 * price code are taken from its packages of that code valid at the outcome's time, in the same
 * transaction, and only the units left over accrue money. `charge_accruals.units` therefore
 * counts the units paid for with money; what packages covered is in `package_usage`.
 */
export const MAIL_CHARGING_CURSOR = 'charging-mail';
export const SMS_CHARGING_CURSOR = 'charging-sms';

/** Invalid sub-statuses Herald decides before sending: not billed. */
const HELD_BACK = new Set([401, 402]);
const MAIL_BILLABLE = new Set(['deliver', 'soft_bounce', 'invalid']);

interface Billable {
  accountId: number;
  at: number;
  code: string;
  units: number;
  millifen: number;
}

/** Thousandths of a fen for `units` items of price `code` (units divide 1000 exactly). */
function millifenOf(prices: repo.PriceMap, code: string, units: number): number {
  const p = prices.get(code);
  if (!p) return 0;
  return (units * p.fen * 1000) / p.unit;
}

/**
 * Adds the billables to their accrual rows and charges what the rounded-up total has grown by.
 * `source` and `lastId` make each charge's idempotency key: the log and the batch's last event.
 */
async function accrueAndCharge(
  trx: Kysely<DB>,
  billables: Billable[],
  source: 'mail' | 'sms',
  lastId: number,
  now: number,
): Promise<number> {
  const paid = await repo.paidAccounts(trx, [...new Set(billables.map((b) => b.accountId))]);
  const billed = billables.filter((b) => paid.has(b.accountId) && b.millifen !== 0);
  const left = await drawFromPackages(trx, billed, now);
  const folded = new Map<
    string,
    { accountId: number; day: string; code: string; units: number; millifen: number }
  >();
  billed.forEach((b, i) => {
    const units = left[i] as number;
    if (units === 0) return;
    // A billable's money is linear in its units: what packages covered is taken off pro rata.
    const millifen = units === b.units ? b.millifen : (b.millifen / b.units) * units;
    const day = statDay(b.at);
    const key = `${b.accountId}\u0000${day}\u0000${b.code}`;
    const row = folded.get(key) ?? { accountId: b.accountId, day, code: b.code, units: 0, millifen: 0 };
    row.units += units;
    row.millifen += millifen;
    folded.set(key, row);
  });
  let charged = 0;
  for (const f of folded.values()) {
    const accrual = await repo.addAccrual(trx, f, now);
    const owed = Math.ceil(Number(accrual.accrued_millifen) / 1000);
    const delta = owed - Number(accrual.charged_fen);
    if (delta <= 0) continue;
    await postEntry(trx, {
      accountId: f.accountId,
      kind: 'charge',
      amountFen: -delta,
      reason: `${f.code} ${f.day}`,
      detail: JSON.stringify({ code: f.code, day: f.day, units: f.units, dayUnits: Number(accrual.units) }),
      idempotencyKey: `charge:${source}:${lastId}:${f.accountId}:${f.day}:${f.code}`,
      at: now,
    });
    await repo.setCharged(trx, f, owed);
    charged += delta;
  }
  return charged;
}

/** The billable mail outcomes of a batch of mail events (applied inside MailEventsService.consume). */
export async function chargeMailEvents(trx: Kysely<DB>, events: MailEvent[], now: number): Promise<void> {
  const billable = events.filter(
    (e) => MAIL_BILLABLE.has(e.kind) && !(e.kind === 'invalid' && HELD_BACK.has(e.subStatus ?? 0)),
  );
  if (billable.length === 0) return;
  const prices = await repo.pricesIn(trx);
  const perMail = millifenOf(prices, 'email', 1);
  const charges: Billable[] = billable.map((e) => ({
    accountId: e.accountId,
    at: e.at,
    code: 'email',
    units: 1,
    millifen: perMail,
  }));
  // Traffic: a delivered mail over the free 200 KB pays per started MB beyond it (product-spec §9).
  const delivered = billable.filter((e) => e.kind === 'deliver');
  const sizes = await repo.messageSizesOver(
    trx,
    [...new Set(delivered.map((e) => e.messageId))],
    FREE_TRAFFIC_BYTES,
  );
  for (const e of delivered) {
    const megabytes = trafficMegabytes(sizes.get(e.messageId) ?? 0);
    if (megabytes === 0) continue;
    charges.push({
      accountId: e.accountId,
      at: e.at,
      code: 'email_traffic',
      units: megabytes,
      millifen: millifenOf(prices, 'email_traffic', megabytes),
    });
  }
  await accrueAndCharge(trx, charges, 'mail', events[events.length - 1]?.id ?? 0, now);
}

/** Free traffic per paid mail (product-spec §9). */
export const FREE_TRAFFIC_BYTES = 200 * 1024;
const MEGABYTE = 1024 * 1024;

/**
 * The started megabytes a mail of `bytes` pays for beyond the free 200 KB. The size is the
 * message as accepted (its HTML, text and attachments), not its encoded form on the wire.
 */
export function trafficMegabytes(bytes: number): number {
  return bytes <= FREE_TRAFFIC_BYTES ? 0 : Math.ceil((bytes - FREE_TRAFFIC_BYTES) / MEGABYTE);
}

const SMS_CODE: Record<string, string> = {
  domestic: 'sms_domestic',
  international: 'sms_international',
  voice: 'sms_voice',
  mms: 'sms_mms',
};

/**
 * Charges the next batch of SMS delivery receipts (sms_events `deliver`) after the cursor, in
 * one transaction with the cursor. Returns how many events were read (0: caught up).
 */
export async function chargeSmsBatch(database: Database, limit: number, now: number): Promise<number> {
  return database.db.transaction().execute(async (trx) => {
    const lastId = await lockCursor(trx, database.dialect, SMS_CHARGING_CURSOR, now);
    const events = await repo.smsEventsAfter(trx, lastId, limit);
    if (events.length === 0) return 0;
    const delivered = events.filter((e) => e.kind === 'deliver');
    if (delivered.length > 0) {
      const prices = await repo.pricesIn(trx);
      const countries = [
        ...new Set(delivered.filter((e) => e.price_class === 'international').map((e) => e.country)),
      ];
      const perCountry = await repo.countryPrices(trx, countries);
      const billables = delivered.map((e): Billable => {
        const code = SMS_CODE[e.price_class] ?? 'sms_domestic';
        const units = code === 'sms_voice' || code === 'sms_mms' ? 1 : Math.max(1, Number(e.parts));
        const milli = code === 'sms_international' ? perCountry.get(e.country) : undefined;
        // A country's own price is in thousandths of a yuan per part: 100 millifen each.
        const millifen = milli === undefined ? millifenOf(prices, code, units) : units * milli * 100;
        return { accountId: Number(e.account_id), at: Number(e.at), code, units, millifen };
      });
      await accrueAndCharge(trx, billables, 'sms', Number(events[events.length - 1]?.id), now);
    }
    await advanceCursor(trx, SMS_CHARGING_CURSOR, Number(events[events.length - 1]?.id), now);
    return events.length;
  });
}
