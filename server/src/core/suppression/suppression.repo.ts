import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { containing } from '../../db/like-pattern.ts';
import type {
  InterceptRulesTable,
  SuppressionEntriesTable,
  SuppressionEntryList,
  SuppressionGlobalInvalidTable,
} from '../../db/suppression-schema.ts';

/** SQL of the suppression lists: the account's entries, the global invalid list, interception rules. */

export type EntryRow = Omit<SuppressionEntriesTable, 'id' | 'api_user_id' | 'label_id'> & {
  id: number;
  api_user_id: number;
  label_id: number;
};
export type GlobalRow = SuppressionGlobalInvalidTable;
export type RuleRow = Omit<InterceptRulesTable, 'id' | 'api_user_id'> & { id: number; api_user_id: number };

const ENTRY_COLUMNS = [
  'id',
  'account_id',
  'list',
  'address',
  'domain',
  'api_user_id',
  'label_id',
  'reason',
  'detail',
  'source',
  'expires_at',
  'created_at',
  'updated_at',
] as const;

/**
 * The hot path of the delivery engine, once per claimed batch: the account's live entries for a
 * set of addresses (the unique key starts with account_id, address). Plain SQL: building the
 * query with the query builder cost more CPU than running it.
 */
export async function liveEntriesFor(
  { db }: Database,
  accountId: number,
  addresses: string[],
  now: number,
): Promise<EntryRow[]> {
  const { rows } = await sql<EntryRow>`SELECT ${sql.raw(ENTRY_COLUMNS.join(', '))} FROM suppression_entries
    WHERE account_id = ${accountId} AND address IN (${sql.join(addresses)})
      AND (expires_at IS NULL OR expires_at > ${now})`.execute(db);
  return rows;
}

/** The global blocks of a set of addresses, except those this account released after they were last seen (hot path too). */
export async function liveGlobalFor(
  { db }: Database,
  accountId: number,
  addresses: string[],
  now: number,
): Promise<GlobalRow[]> {
  const { rows } = await sql<GlobalRow>`SELECT g.* FROM suppression_global_invalid g
    WHERE g.address IN (${sql.join(addresses)}) AND g.blocked_until > ${now}
      AND NOT EXISTS (SELECT 1 FROM suppression_releases r
        WHERE r.account_id = ${accountId} AND r.address = g.address AND r.released_at >= g.last_seen_at)`.execute(
    db,
  );
  return rows;
}

export async function findGlobal({ db }: Database, address: string): Promise<GlobalRow | undefined> {
  return db
    .selectFrom('suppression_global_invalid')
    .selectAll()
    .where('address', '=', address)
    .executeTakeFirst();
}

export async function upsertGlobal({ db }: Database, row: GlobalRow): Promise<void> {
  await db
    .insertInto('suppression_global_invalid')
    .values(row)
    .onConflict((oc) =>
      oc.column('address').doUpdateSet({
        times_seen: row.times_seen,
        blocked_until: row.blocked_until,
        detail: row.detail,
        last_seen_at: row.last_seen_at,
      }),
    )
    .execute();
}

export interface EntryWrite {
  accountId: number;
  list: SuppressionEntryList;
  address: string;
  apiUserId?: number | null | undefined;
  labelId?: number | null | undefined;
  reason: string;
  detail: string | null;
  source: string;
  expiresAt: number | null;
  at: number;
}

/** Adds an entry, or refreshes it (reason, detail, expiry) when the same one exists. */
export async function upsertEntry({ db }: Database, entry: EntryWrite): Promise<void> {
  await db
    .insertInto('suppression_entries')
    .values({
      account_id: entry.accountId,
      list: entry.list,
      address: entry.address,
      domain: entry.address.slice(entry.address.lastIndexOf('@') + 1),
      api_user_id: entry.apiUserId ?? 0,
      label_id: entry.labelId ?? 0,
      reason: entry.reason,
      detail: entry.detail,
      source: entry.source,
      expires_at: entry.expiresAt,
      created_at: entry.at,
      updated_at: entry.at,
    })
    .onConflict((oc) =>
      oc.columns(['account_id', 'address', 'list', 'api_user_id', 'label_id']).doUpdateSet({
        reason: entry.reason,
        detail: entry.detail,
        source: entry.source,
        expires_at: entry.expiresAt,
        created_at: entry.at,
        updated_at: entry.at,
      }),
    )
    .execute();
}

export interface EntryFilter {
  list: SuppressionEntryList;
  /** Part of the address. */
  email?: string | undefined;
  /** Exact addresses (SendCloud's `email`). */
  addresses?: string[] | undefined;
  from?: number | undefined;
  to?: number | undefined;
  apiUserIds?: number[] | undefined;
  labelIds?: number[] | undefined;
  /** Leave out entries that no longer block. */
  liveAt?: number | undefined;
}

function filtered({ db }: Database, accountId: number, f: EntryFilter) {
  let q = db.selectFrom('suppression_entries').where('account_id', '=', accountId).where('list', '=', f.list);
  if (f.email) q = q.where('address', 'like', containing(f.email.toLowerCase()));
  if (f.addresses?.length) q = q.where('address', 'in', f.addresses);
  if (f.from !== undefined) q = q.where('created_at', '>=', f.from);
  if (f.to !== undefined) q = q.where('created_at', '<=', f.to);
  if (f.apiUserIds?.length) q = q.where('api_user_id', 'in', f.apiUserIds);
  if (f.labelIds?.length) q = q.where('label_id', 'in', f.labelIds);
  const live = f.liveAt;
  if (live !== undefined)
    q = q.where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', live)]));
  return q;
}

export async function listEntries(
  database: Database,
  accountId: number,
  f: EntryFilter,
  page: { offset: number; limit: number },
): Promise<EntryRow[]> {
  return (await filtered(database, accountId, f)
    .select(ENTRY_COLUMNS)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute()) as EntryRow[];
}

export async function countEntries(database: Database, accountId: number, f: EntryFilter): Promise<number> {
  const row = await filtered(database, accountId, f)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findEntry(
  { db }: Database,
  accountId: number,
  list: SuppressionEntryList,
  id: number,
): Promise<EntryRow | undefined> {
  return (await db
    .selectFrom('suppression_entries')
    .select(ENTRY_COLUMNS)
    .where('account_id', '=', accountId)
    .where('list', '=', list)
    .where('id', '=', id)
    .executeTakeFirst()) as EntryRow | undefined;
}

export async function deleteEntries(
  { db }: Database,
  accountId: number,
  list: SuppressionEntryList,
  where: { ids?: number[]; addresses?: string[]; apiUserIds?: number[]; labelIds?: number[] },
): Promise<{ address: string }[]> {
  let q = db.deleteFrom('suppression_entries').where('account_id', '=', accountId).where('list', '=', list);
  if (where.ids) q = q.where('id', 'in', where.ids.length ? where.ids : [-1]);
  if (where.addresses) q = q.where('address', 'in', where.addresses.length ? where.addresses : ['']);
  if (where.apiUserIds?.length) q = q.where('api_user_id', 'in', where.apiUserIds);
  if (where.labelIds?.length) q = q.where('label_id', 'in', where.labelIds);
  return q.returning('address').execute();
}

export async function release(
  { db }: Database,
  accountId: number,
  address: string,
  at: number,
): Promise<void> {
  await db
    .insertInto('suppression_releases')
    .values({ account_id: accountId, address, released_at: at })
    .onConflict((oc) => oc.columns(['account_id', 'address']).doUpdateSet({ released_at: at }))
    .execute();
}

export async function listRules({ db }: Database, accountId: number): Promise<RuleRow[]> {
  return (await db
    .selectFrom('intercept_rules')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .execute()) as RuleRow[];
}

export async function insertRule(
  { db }: Database,
  accountId: number,
  rule: { type: RuleRow['type']; value: string; apiUserId: number | null; note: string | null },
  at: number,
): Promise<number | null> {
  const row = await db
    .insertInto('intercept_rules')
    .values({
      account_id: accountId,
      api_user_id: rule.apiUserId ?? 0,
      type: rule.type,
      value: rule.value,
      note: rule.note,
      created_at: at,
    })
    .onConflict((oc) => oc.columns(['account_id', 'api_user_id', 'type', 'value']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

export async function deleteRule({ db }: Database, accountId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('intercept_rules')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** API_USER names of the account by id, for the list views. */
export async function apiUserNames({ db }: Database, accountId: number): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('api_users')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .execute();
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}
