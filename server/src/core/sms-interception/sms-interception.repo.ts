import type { Database } from '../../db/database.ts';
import type { SmsBlocksTable } from '../../db/sms-schema.ts';

/** The SQL of interception lists and keywords. `account_id` 0 is the platform's global list. */
type Kind = SmsBlocksTable['kind'];

/** Live entries of any list for these numbers (the SMS channel's check). */
export async function liveEntriesOf({ db }: Database, phones: string[], now: number) {
  const rows = [];
  for (let i = 0; i < phones.length; i += 500) {
    rows.push(
      ...(await db
        .selectFrom('sms_blocks')
        .select(['account_id', 'kind', 'phone', 'reason'])
        .where('phone', 'in', phones.slice(i, i + 500))
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .execute()),
    );
  }
  return rows;
}

export async function listEntries(
  { db }: Database,
  accountId: number,
  kind: Kind,
  filter: { phone?: string; offset: number; limit: number },
  now: number,
) {
  let base = db
    .selectFrom('sms_blocks')
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  if (filter.phone) base = base.where('phone', '=', filter.phone);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await base
    .selectAll()
    .orderBy('id', 'desc')
    .offset(filter.offset)
    .limit(filter.limit)
    .execute();
  return { rows, total: Number(total?.n ?? 0) };
}

export function findEntry({ db }: Database, accountId: number, kind: Kind, phone: string) {
  return db
    .selectFrom('sms_blocks')
    .select(['id', 'expires_at'])
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where('phone', '=', phone)
    .executeTakeFirst();
}

export async function renewEntry(
  { db }: Database,
  id: number,
  values: { reason: string | null; source: string; expires_at: number | null; created_at?: number },
): Promise<void> {
  await db.updateTable('sms_blocks').set(values).where('id', '=', id).execute();
}

export async function insertEntry(
  { db }: Database,
  values: {
    account_id: number;
    kind: Kind;
    phone: string;
    reason: string | null;
    source: string;
    expires_at: number | null;
    created_at: number;
  },
): Promise<void> {
  await db
    .insertInto('sms_blocks')
    .values(values)
    .onConflict((oc) => oc.columns(['account_id', 'kind', 'phone']).doNothing())
    .execute();
}

export async function deleteEntry(
  { db }: Database,
  accountId: number,
  kind: Kind,
  id: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom('sms_blocks')
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export function listKeywords({ db }: Database, accountId: number) {
  return db
    .selectFrom('sms_keywords')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

export async function insertKeyword(
  { db }: Database,
  accountId: number,
  keyword: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('sms_keywords')
    .values({ account_id: accountId, keyword, created_at: now })
    .onConflict((oc) => oc.columns(['account_id', 'keyword']).doNothing())
    .execute();
}

export async function deleteKeyword({ db }: Database, accountId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('sms_keywords')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
