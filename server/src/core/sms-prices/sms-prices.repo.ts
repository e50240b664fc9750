import type { Database } from '../../db/database.ts';

/** The SQL of international SMS prices and sender rules. */

export function listPrices({ db }: Database, countries?: string[]) {
  let query = db.selectFrom('sms_country_prices').selectAll().orderBy('country');
  if (countries) query = query.where('country', 'in', countries.length > 0 ? countries : ['']);
  return query.execute();
}

export async function savePrice(
  { db }: Database,
  row: {
    country: string;
    price_milli: number;
    sender_rule: string;
    sender_id: string | null;
    updated_at: number;
  },
): Promise<void> {
  const { country, ...values } = row;
  await db
    .insertInto('sms_country_prices')
    .values(row)
    .onConflict((oc) => oc.column('country').doUpdateSet(values))
    .execute();
}

export async function deletePrice({ db }: Database, country: string): Promise<boolean> {
  const result = await db.deleteFrom('sms_country_prices').where('country', '=', country).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
