import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** The SQL of charging by result (charging.ts), each inside the batch's transaction. */

export type PriceMap = Map<string, { unit: number; fen: number }>;

export async function pricesIn(trx: Kysely<DB>): Promise<PriceMap> {
  const rows = await trx.selectFrom('prices').select(['code', 'unit', 'fen']).execute();
  return new Map(rows.map((r) => [r.code, { unit: Number(r.unit), fen: Number(r.fen) }]));
}

/**
 * The customer accounts among `ids` that are charged: on the paid plan, with money on the ledger
 * (a balance row). An account an operator marked paid with no ledger history is arranged offline:
 * neither charged nor refused (balance-gate.ts); a recharge gives every other paid account a row.
 */
export async function paidAccounts(trx: Kysely<DB>, ids: number[]): Promise<Set<number>> {
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

/** Adds units and thousandths of a fen to a day's accrual row; answers the row's totals. */
export function addAccrual(
  trx: Kysely<DB>,
  a: { accountId: number; day: string; code: string; units: number; millifen: number },
  now: number,
) {
  return trx
    .insertInto('charge_accruals')
    .values({
      account_id: a.accountId,
      day: a.day,
      price_code: a.code,
      units: a.units,
      accrued_millifen: a.millifen,
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
}

export async function setCharged(
  trx: Kysely<DB>,
  a: { accountId: number; day: string; code: string },
  chargedFen: number,
): Promise<void> {
  await trx
    .updateTable('charge_accruals')
    .set({ charged_fen: chargedFen })
    .where('account_id', '=', a.accountId)
    .where('day', '=', a.day)
    .where('price_code', '=', a.code)
    .execute();
}

/** The sizes of those messages that are over `overBytes`. */
export async function messageSizesOver(
  trx: Kysely<DB>,
  ids: number[],
  overBytes: number,
): Promise<Map<number, number>> {
  const sizes = new Map<number, number>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await trx
      .selectFrom('messages')
      .select(['id', 'size_bytes'])
      .where('id', 'in', ids.slice(i, i + 500))
      .where('size_bytes', '>', overBytes)
      .execute();
    for (const r of rows) sizes.set(Number(r.id), Number(r.size_bytes));
  }
  return sizes;
}

/** SMS events after `afterId` with what charging needs of their message. */
export function smsEventsAfter(trx: Kysely<DB>, afterId: number, limit: number) {
  return trx
    .selectFrom('sms_events as e')
    .innerJoin('sms_messages as m', 'm.id', 'e.sms_message_id')
    .select(['e.id', 'e.kind', 'e.account_id', 'e.at', 'm.price_class', 'm.parts', 'm.country'])
    .where('e.id', '>', afterId)
    .orderBy('e.id')
    .limit(limit)
    .execute();
}

/** The countries' own international prices, thousandths of a yuan per part. */
export async function countryPrices(trx: Kysely<DB>, countries: string[]): Promise<Map<string, number>> {
  if (countries.length === 0) return new Map();
  const rows = await trx
    .selectFrom('sms_country_prices')
    .select(['country', 'price_milli'])
    .where('country', 'in', countries)
    .execute();
  return new Map(rows.map((r) => [r.country, Number(r.price_milli)]));
}
