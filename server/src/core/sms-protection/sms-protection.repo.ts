import type { Database } from '../../db/database.ts';

/** The SQL of anti-bombing: the account's limits and the recent SMS to some numbers. */

export function findLimits({ db }: Database, accountId: number) {
  return db
    .selectFrom('sms_frequency_limits')
    .select(['per_minute', 'per_day', 'template_guard', 'template_window', 'template_max'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export async function saveLimits(
  { db }: Database,
  accountId: number,
  values: {
    per_minute: number;
    per_day: number;
    template_guard: number;
    template_window: number;
    template_max: number;
    updated_at: number;
  },
): Promise<void> {
  await db
    .insertInto('sms_frequency_limits')
    .values({ account_id: accountId, ...values })
    .onConflict((oc) => oc.column('account_id').doUpdateSet(values))
    .execute();
}

/**
 * Every SMS requested since `since` to these numbers, of any account. No account filter: with
 * one, SQLite may prefer the (account_id, requested_at) index and scan a busy account's whole day;
 * the (phone, requested_at) index finds these numbers' few rows.
 */
export async function requestsTo(
  { db }: Database,
  phones: string[],
  since: number,
): Promise<{ phone: string; account_id: number; at: number }[]> {
  const rows: { phone: string; account_id: number; at: number }[] = [];
  for (let i = 0; i < phones.length; i += 500) {
    rows.push(
      ...(await db
        .selectFrom('sms_messages')
        .select(['phone', 'account_id', 'requested_at as at'])
        .where('phone', 'in', phones.slice(i, i + 500))
        .where('requested_at', '>=', since)
        .execute()),
    );
  }
  return rows;
}
