import type { Database } from '../../db/database.ts';

/** The SQL of the SMS content view switch, and the account's plan that gates it. */

export async function findSetting({ db }: Database, accountId: number) {
  return db
    .selectFrom('accounts as a')
    .leftJoin('sms_content_settings as s', 's.account_id', 'a.id')
    .select(['a.plan', 's.enabled'])
    .where('a.id', '=', accountId)
    .executeTakeFirst();
}

export async function saveSetting({ db }: Database, accountId: number, enabled: boolean, now: number) {
  const values = { enabled: enabled ? 1 : 0, updated_at: now };
  await db
    .insertInto('sms_content_settings')
    .values({ account_id: accountId, ...values })
    .onConflict((oc) => oc.column('account_id').doUpdateSet(values))
    .execute();
}
