import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { containing } from '../../db/like-pattern.ts';
import type { DB } from '../../db/schema.ts';
import type { ListTables } from '../list-imports/list-imports.repo.ts';
import * as shared from '../list-imports/list-members.repo.ts';
import { type ListKind, Refused } from '../list-imports/list-members.repo.ts';

/**
 * Address lists and their members. Lists are scoped by account in every query but the alias
 * check (an alias is unique on the platform); members through their list, which the service has
 * found in the caller's account first. Member reads leave out the rows of the list's pending
 * import (migration 0047 says why).
 */
export const ADDRESS_LIST_TABLES: ListTables = {
  lists: 'address_lists',
  members: 'address_list_members',
  imports: 'address_list_imports',
  key: 'address',
};

export type ListRow = {
  id: number;
  name: string;
  description: string;
  prefix: string;
  member_count: number;
  var_names: string;
  pending_import_id: number | null;
  created_at: number;
  updated_at: number;
  last_used_at: number | null;
};

export type MemberRow = {
  id: number;
  list_id: number;
  address: string;
  name: string;
  vars: string | null;
  created_at: number;
  updated_at: number | null;
};

export interface MemberValues {
  address: string;
  name: string;
  vars: string | null;
}

const LIST_COLUMNS = [
  'id',
  'name',
  'description',
  'prefix',
  'member_count',
  'var_names',
  'pending_import_id',
  'created_at',
  'updated_at',
  'last_used_at',
] as const;
const MEMBER_COLUMNS = ['id', 'list_id', 'address', 'name', 'vars', 'created_at', 'updated_at'] as const;

function listsOf({ db }: Database, accountId: number) {
  return db.selectFrom('address_lists').where('account_id', '=', accountId);
}

/** A page of the account's lists, newest first; `name` finds part of the name or of the alias. */
export async function listLists(
  database: Database,
  accountId: number,
  filter: { name?: string | undefined; prefixes?: string[] | undefined; offset: number; limit: number },
): Promise<{ rows: ListRow[]; total: number }> {
  let query = listsOf(database, accountId);
  const text = filter.name ? containing(filter.name.toLowerCase()) : '';
  if (text)
    query = query.where((eb) =>
      eb.or([eb(eb.fn('lower', ['name']), 'like', text), eb('prefix', 'like', text)]),
    );
  if (filter.prefixes) query = query.where('prefix', 'in', filter.prefixes.length ? filter.prefixes : ['']);
  const [rows, total] = await Promise.all([
    query.select(LIST_COLUMNS).orderBy('id', 'desc').offset(filter.offset).limit(filter.limit).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function findList(
  database: Database,
  accountId: number,
  id: number,
): Promise<ListRow | undefined> {
  return listsOf(database, accountId).select(LIST_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function findListByPrefix(
  database: Database,
  accountId: number,
  prefix: string,
): Promise<ListRow | undefined> {
  return listsOf(database, accountId).select(LIST_COLUMNS).where('prefix', '=', prefix).executeTakeFirst();
}

/** Whether any account's list has this alias (lower-cased prefix), other than `self`. */
export async function prefixTaken({ db }: Database, prefix: string, self?: number): Promise<boolean> {
  let query = db.selectFrom('address_lists').select('id').where('prefix', '=', prefix);
  if (self !== undefined) query = query.where('id', '!=', self);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertList(
  { db }: Database,
  accountId: number,
  list: { name: string; description: string; prefix: string },
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('address_lists')
    .values({ account_id: accountId, ...list, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateList(
  { db }: Database,
  accountId: number,
  id: number,
  list: { name: string; description: string; prefix: string },
  now: number,
): Promise<void> {
  await db
    .updateTable('address_lists')
    .set({ ...list, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

/** Only a list with no import under way; its members are purged afterwards (purgeMembers). */
export const deleteList = (database: Database, accountId: number, id: number) =>
  shared.deleteList(database, ADDRESS_LIST_TABLES, accountId, id);

const MEMBERS: ListKind<MemberRow> = { tables: ADDRESS_LIST_TABLES, memberColumns: MEMBER_COLUMNS };

/** A page of the list's members in address order (the unique index's), found by address or name. */
export const listMembers = (
  database: Database,
  list: Pick<ListRow, 'id' | 'pending_import_id' | 'member_count'>,
  filter: { query?: string | undefined; offset: number; limit: number },
) => shared.listMembers(database, MEMBERS, list, filter);

/** The next members after `afterAddress`, in address order: the export reads a list this way. */
export const membersAfter = (
  database: Database,
  list: Pick<ListRow, 'id' | 'pending_import_id'>,
  afterAddress: string,
  limit: number,
) => shared.membersAfter(database, MEMBERS, list, afterAddress, limit);

export const findMembersByAddress = (
  database: Database,
  list: Pick<ListRow, 'id' | 'pending_import_id'>,
  addresses: string[],
) => shared.findMembersByKey(database, MEMBERS, list, addresses);

/** A member by its id, if its list is in the account and the member is committed. */
export const findMember = (database: Database, accountId: number, id: number) =>
  shared.findMember(database, MEMBERS, accountId, id);

/** Why a member change was not made; the service names the error. */
export type MemberRefusal = 'busy' | 'full' | 'exists';

const settle = <T>(work: Promise<T>) => shared.settle<T, MemberRefusal>(work);

/**
 * Changes the list's count by `delta` (and its variable names), if no import runs and the count
 * stays within `max`; throws Refused otherwise, so the transaction's rows go too.
 */
async function recount(
  trx: Transaction<DB>,
  listId: number,
  delta: number,
  options: { max: number; varNames?: string | undefined; now: number },
): Promise<void> {
  const result = await trx
    .updateTable('address_lists')
    .set((eb) => ({
      member_count: eb('member_count', '+', delta),
      ...(options.varNames === undefined ? {} : { var_names: options.varNames }),
      updated_at: options.now,
    }))
    .where('id', '=', listId)
    .where('pending_import_id', 'is', null)
    .where('member_count', '<=', options.max - delta)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) return;
  const list = await trx
    .selectFrom('address_lists')
    .select('pending_import_id')
    .where('id', '=', listId)
    .executeTakeFirst();
  throw new Refused<MemberRefusal>(list && list.pending_import_id === null ? 'full' : 'busy');
}

/**
 * Adds members the list does not have (an address it has is skipped, or with `upsert` changed),
 * counting them in, in one transaction: the count never disagrees with the rows. Answers the
 * addresses added and those changed.
 */
export async function addMembers(
  { db }: Database,
  listId: number,
  members: MemberValues[],
  options: { max: number; varNames: string; upsert: boolean; now: number },
): Promise<{ added: string[]; updated: string[] } | MemberRefusal> {
  return settle(
    db.transaction().execute(async (trx) => {
      const added = await trx
        .insertInto('address_list_members')
        .values(members.map((m) => ({ list_id: listId, ...m, import_id: null, created_at: options.now })))
        .onConflict((oc) => oc.columns(['list_id', 'address']).doNothing())
        .returning('address')
        .execute();
      const addedSet = new Set(added.map((row) => row.address));
      const updated: string[] = [];
      if (options.upsert) {
        for (const member of members) {
          if (addedSet.has(member.address)) continue;
          await trx
            .updateTable('address_list_members')
            .set({ name: member.name, vars: member.vars, updated_at: options.now })
            .where('list_id', '=', listId)
            .where('address', '=', member.address)
            .execute();
          updated.push(member.address);
        }
      }
      await recount(trx, listId, added.length, options);
      return { added: [...addedSet], updated };
    }),
  );
}

/** Changes members found by address (their name and variables); answers the addresses changed. */
export async function updateMembersByAddress(
  { db }: Database,
  listId: number,
  members: { address: string; name?: string | undefined; vars?: string | null | undefined }[],
  options: { varNames: string; now: number },
): Promise<string[] | MemberRefusal> {
  return settle(
    db.transaction().execute(async (trx) => {
      await recount(trx, listId, 0, { max: Number.MAX_SAFE_INTEGER, ...options });
      const changed: string[] = [];
      for (const { address, name, vars } of members) {
        const set = {
          ...(name === undefined ? {} : { name }),
          ...(vars === undefined ? {} : { vars }),
          updated_at: options.now,
        };
        const result = await trx
          .updateTable('address_list_members')
          .set(set)
          .where('list_id', '=', listId)
          .where('address', '=', address)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 1) changed.push(address);
      }
      return changed;
    }),
  );
}

/** Changes one member by its id (its address too); 'exists' when another member has that address. */
export async function updateMember(
  { db }: Database,
  listId: number,
  id: number,
  member: MemberValues,
  options: { varNames: string; now: number },
): Promise<true | MemberRefusal> {
  return settle(
    db.transaction().execute(async (trx) => {
      await recount(trx, listId, 0, { max: Number.MAX_SAFE_INTEGER, ...options });
      const taken = await trx
        .selectFrom('address_list_members')
        .select('id')
        .where('list_id', '=', listId)
        .where('address', '=', member.address)
        .where('id', '!=', id)
        .executeTakeFirst();
      if (taken) throw new Refused<MemberRefusal>('exists');
      await trx
        .updateTable('address_list_members')
        .set({ ...member, updated_at: options.now })
        .where('list_id', '=', listId)
        .where('id', '=', id)
        .execute();
      return true as const;
    }),
  );
}

/** Deletes members by id or by address, counting them out; answers how many went. */
export async function deleteMembers(
  { db }: Database,
  listId: number,
  which: { ids: number[] } | { addresses: string[] },
  now: number,
): Promise<number | MemberRefusal> {
  return settle(
    db.transaction().execute(async (trx) => {
      // No import runs (recount refuses otherwise), so every row of the list is a committed member.
      let query = trx.deleteFrom('address_list_members').where('list_id', '=', listId);
      query =
        'ids' in which ? query.where('id', 'in', which.ids) : query.where('address', 'in', which.addresses);
      const deleted = Number((await query.executeTakeFirst()).numDeletedRows);
      await recount(trx, listId, -deleted, { max: Number.MAX_SAFE_INTEGER, now });
      return deleted;
    }),
  );
}
