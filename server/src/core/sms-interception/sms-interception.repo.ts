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

/** Live entries whose number holds these digits anywhere (the operator's search of the global list). */
export async function searchEntries(
  { db }: Database,
  accountId: number,
  kind: Kind,
  filter: { digits?: string; offset: number; limit: number },
  now: number,
) {
  let base = db
    .selectFrom('sms_blocks')
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  if (filter.digits) base = base.where('phone', 'like', `%${filter.digits}%`);
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

const IMPORT_CHUNK = 500;

/**
 * Puts many numbers on a list in one transaction (an import: all or nothing). As one by one
 * adding does, an entry already there becomes permanent with the import's reason, and an
 * expired one counts as new again; answers how many are new and how many were there.
 */
export async function importEntries(
  database: Database,
  accountId: number,
  kind: Kind,
  phones: string[],
  entry: { reason: string | null; now: number },
): Promise<{ imported: number; existing: number }> {
  const { reason, now } = entry;
  return database.db.transaction().execute(async (trx) => {
    let imported = 0;
    let existing = 0;
    for (let i = 0; i < phones.length; i += IMPORT_CHUNK) {
      const chunk = phones.slice(i, i + IMPORT_CHUNK);
      const found = await trx
        .selectFrom('sms_blocks')
        .select(['id', 'phone', 'expires_at'])
        .where('account_id', '=', accountId)
        .where('kind', '=', kind)
        .where('phone', 'in', chunk)
        .execute();
      const expired = found.filter((r) => r.expires_at !== null && Number(r.expires_at) <= now);
      const live = found.filter((r) => !expired.includes(r));
      const renew = { reason, source: 'import', expires_at: null };
      if (live.length > 0) {
        const ids = live.map((r) => Number(r.id));
        await trx.updateTable('sms_blocks').set(renew).where('id', 'in', ids).execute();
      }
      if (expired.length > 0) {
        const ids = expired.map((r) => Number(r.id));
        await trx
          .updateTable('sms_blocks')
          .set({ ...renew, created_at: now })
          .where('id', 'in', ids)
          .execute();
      }
      const known = new Set(found.map((r) => r.phone));
      const fresh = chunk.filter((p) => !known.has(p));
      if (fresh.length > 0) {
        await trx
          .insertInto('sms_blocks')
          .values(
            fresh.map((phone) => ({
              account_id: accountId,
              kind,
              phone,
              reason,
              source: 'import',
              expires_at: null,
              created_at: now,
            })),
          )
          .onConflict((oc) => oc.columns(['account_id', 'kind', 'phone']).doNothing())
          .execute();
      }
      imported += fresh.length + expired.length;
      existing += live.length;
    }
    return { imported, existing };
  });
}

/** The live entries of a list, oldest first, for an export. */
export function exportEntries({ db }: Database, accountId: number, kind: Kind, now: number, limit: number) {
  return db
    .selectFrom('sms_blocks')
    .select(['phone', 'reason', 'source', 'created_at', 'expires_at'])
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Adds keywords in one transaction; answers how many are new and how many the account had. */
export async function importKeywords(
  database: Database,
  accountId: number,
  keywords: string[],
  now: number,
): Promise<{ imported: number; existing: number }> {
  return database.db.transaction().execute(async (trx) => {
    let imported = 0;
    for (let i = 0; i < keywords.length; i += IMPORT_CHUNK) {
      const chunk = keywords.slice(i, i + IMPORT_CHUNK);
      const found = await trx
        .selectFrom('sms_keywords')
        .select('keyword')
        .where('account_id', '=', accountId)
        .where('keyword', 'in', chunk)
        .execute();
      const known = new Set(found.map((r) => r.keyword));
      const fresh = chunk.filter((k) => !known.has(k));
      if (fresh.length > 0) {
        await trx
          .insertInto('sms_keywords')
          .values(fresh.map((keyword) => ({ account_id: accountId, keyword, created_at: now })))
          .onConflict((oc) => oc.columns(['account_id', 'keyword']).doNothing())
          .execute();
      }
      imported += fresh.length;
    }
    return { imported, existing: keywords.length - imported };
  });
}
