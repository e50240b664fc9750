import type { Database } from '../../db/database.ts';

/** Sender configuration entries and switches of one account; every query is scoped to it. */
export interface EntryRow {
  id: number;
  kind: string;
  entry_key: string;
  settings: string;
  created_at: number;
  updated_at: number;
}

const COLUMNS = ['id', 'kind', 'entry_key', 'settings', 'created_at', 'updated_at'] as const;

export async function listEntries({ db }: Database, accountId: number): Promise<EntryRow[]> {
  return db
    .selectFrom('sender_config_entries')
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

export async function findEntry(
  { db }: Database,
  accountId: number,
  kind: string,
  id: number,
): Promise<EntryRow | undefined> {
  return db
    .selectFrom('sender_config_entries')
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findEntryByKey(
  { db }: Database,
  accountId: number,
  kind: string,
  key: string,
): Promise<EntryRow | undefined> {
  return db
    .selectFrom('sender_config_entries')
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where('entry_key', '=', key)
    .executeTakeFirst();
}

export async function countEntries({ db }: Database, accountId: number, kind: string): Promise<number> {
  const row = await db
    .selectFrom('sender_config_entries')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertEntry(
  { db }: Database,
  accountId: number,
  entry: { kind: string; key: string; settings: string },
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('sender_config_entries')
    .values({
      account_id: accountId,
      kind: entry.kind,
      entry_key: entry.key,
      settings: entry.settings,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateEntry(
  { db }: Database,
  accountId: number,
  id: number,
  entry: { key: string; settings: string },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('sender_config_entries')
    .set({ entry_key: entry.key, settings: entry.settings, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteEntry(
  { db }: Database,
  accountId: number,
  kind: string,
  id: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom('sender_config_entries')
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function listSwitches(
  { db }: Database,
  accountId: number,
): Promise<{ kind: string; enabled: number }[]> {
  return db
    .selectFrom('sender_config_switches')
    .select(['kind', 'enabled'])
    .where('account_id', '=', accountId)
    .execute();
}

export async function setSwitch(
  { db }: Database,
  accountId: number,
  kind: string,
  enabled: boolean,
  now: number,
): Promise<void> {
  await db
    .insertInto('sender_config_switches')
    .values({ account_id: accountId, kind, enabled: enabled ? 1 : 0, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['account_id', 'kind']).doUpdateSet({ enabled: enabled ? 1 : 0, updated_at: now }),
    )
    .execute();
}

/** The account's sending domain names (a fixed mail_from must be one of them or below one). */
export async function sendingDomainNames({ db }: Database, accountId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('sending_domains')
    .select('name')
    .where('account_id', '=', accountId)
    .execute();
  return rows.map((r) => r.name.toLowerCase());
}
