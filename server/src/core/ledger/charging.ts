import { statDay } from '@herald/shared';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { advanceCursor, lockCursor } from '../mail-events/mail-events.repo.ts';
import type { MailEvent } from '../mail-events/mail-events.service.ts';
import { drawFromPackages } from '../vouchers/package-draw.ts';
import { postEntry } from './ledger.repo.ts';

/**
 * Charging by result. Two consumers read the event logs after their cursors (mail_event_cursors
 * rows `charging-mail` and `charging-sms`); each batch's accruals, charges and cursor advance
 * commit in one transaction, so a killed worker re-reads the batch and neither charges twice nor
 * skips.
 *
 * What is billed (paid customer accounts with money on the ledger only, see paidAccounts; the
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

type PriceMap = Map<string, { unit: number; fen: number }>;

async function pricesIn(trx: Kysely<DB>): Promise<PriceMap> {
  const rows = await trx.selectFrom('prices').select(['code', 'unit', 'fen']).execute();
  return new Map(rows.map((r) => [r.code, { unit: Number(r.unit), fen: Number(r.fen) }]));
}

/** Thousandths of a fen for `units` items of price `code` (units divide 1000 exactly). */
function millifenOf(prices: PriceMap, code: string, units: number): number {
  const p = prices.get(code);
  if (!p) return 0;
  return (units * p.fen * 1000) / p.unit;
}

/**
 * The customer accounts among `ids` that are charged: on the paid plan, with money on the ledger
 * (a balance row). Until recharges exist, an account an operator marked paid with no ledger
 * history is arranged offline: neither charged nor refused (balance-gate.ts). Once the first
 * recharge is what makes an account paid, every paid account has a row.
 */
async function paidAccounts(trx: Kysely<DB>, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await trx
    .selectFrom('accounts')
    .innerJoin('account_balances', 'account_balances.account_id', 'accounts.id')
    .select('accounts.id')
    .where('accounts.id', 'in', ids)
    .where('accounts.plan', '=', 'paid')
    .where('accounts.kind', '=', 'customer')
    .execute();
  return new Set(rows.map((r) => Number(r.id)));
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
  const paid = await paidAccounts(trx, [...new Set(billables.map((b) => b.accountId))]);
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
    const accrual = await trx
      .insertInto('charge_accruals')
      .values({
        account_id: f.accountId,
        day: f.day,
        price_code: f.code,
        units: f.units,
        accrued_millifen: f.millifen,
        charged_fen: 0,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.columns(['account_id', 'day', 'price_code']).doUpdateSet({
          units: sql`charge_accruals.units + excluded.units`,
          accrued_millifen: sql`charge_accruals.accrued_millifen + excluded.accrued_millifen`,
          updated_at: now,
        }),
      )
      .returning(['accrued_millifen', 'charged_fen', 'units'])
      .executeTakeFirstOrThrow();
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
    await trx
      .updateTable('charge_accruals')
      .set({ charged_fen: owed })
      .where('account_id', '=', f.accountId)
      .where('day', '=', f.day)
      .where('price_code', '=', f.code)
      .execute();
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
  const prices = await pricesIn(trx);
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
  const sizes = await messageSizes(trx, [...new Set(delivered.map((e) => e.messageId))]);
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

async function messageSizes(trx: Kysely<DB>, ids: number[]): Promise<Map<number, number>> {
  const sizes = new Map<number, number>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await trx
      .selectFrom('messages')
      .select(['id', 'size_bytes'])
      .where('id', 'in', ids.slice(i, i + 500))
      .where('size_bytes', '>', FREE_TRAFFIC_BYTES)
      .execute();
    for (const r of rows) sizes.set(Number(r.id), Number(r.size_bytes));
  }
  return sizes;
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
    const events = await trx
      .selectFrom('sms_events as e')
      .innerJoin('sms_messages as m', 'm.id', 'e.sms_message_id')
      .select(['e.id', 'e.kind', 'e.account_id', 'e.at', 'm.price_class', 'm.parts', 'm.country'])
      .where('e.id', '>', lastId)
      .orderBy('e.id')
      .limit(limit)
      .execute();
    if (events.length === 0) return 0;
    const delivered = events.filter((e) => e.kind === 'deliver');
    if (delivered.length > 0) {
      const prices = await pricesIn(trx);
      const countries = [
        ...new Set(delivered.filter((e) => e.price_class === 'international').map((e) => e.country)),
      ];
      const perCountry = new Map(
        countries.length === 0
          ? []
          : (
              await trx
                .selectFrom('sms_country_prices')
                .select(['country', 'price_milli'])
                .where('country', 'in', countries)
                .execute()
            ).map((r) => [r.country, Number(r.price_milli)]),
      );
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
