import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { containing } from '../../db/like-pattern.ts';
import type { DB } from '../../db/schema.ts';
import type { ListTables } from '../list-imports/list-imports.repo.ts';
import * as lists from '../list-imports/list-imports.repo.ts';
import * as shared from '../list-imports/list-members.repo.ts';
import { type ListKind, Refused } from '../list-imports/list-members.repo.ts';

/**
 * Contact lists and their members. Lists are scoped by account in every query; members through
 * their list, which the service has found in the caller's account first. Member reads leave out
 * the rows of the list's pending import (migration 0040 says why).
 */
export type ListRow = {
  id: number;
  name: string;
  description: string;
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
  phone: string;
  name: string;
  vars: string | null;
  created_at: number;
};

const LIST_COLUMNS = [
  'id',
  'name',
  'description',
  'member_count',
  'var_names',
  'pending_import_id',
  'created_at',
  'updated_at',
  'last_used_at',
] as const;
const MEMBER_COLUMNS = ['id', 'list_id', 'phone', 'name', 'vars', 'created_at'] as const;

function listsOf({ db }: Database, accountId: number) {
  return db.selectFrom('sms_contact_lists').where('account_id', '=', accountId);
}

export async function listLists(
  database: Database,
  accountId: number,
  filter: { name?: string | undefined; offset: number; limit: number },
): Promise<{ rows: ListRow[]; total: number }> {
  let query = listsOf(database, accountId);
  if (filter.name) {
    query = query.where((eb) =>
      eb(eb.fn('lower', ['name']), 'like', containing((filter.name ?? '').toLowerCase())),
    );
  }
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

export async function findListByName(
  database: Database,
  accountId: number,
  name: string,
): Promise<ListRow | undefined> {
  return listsOf(database, accountId).select(LIST_COLUMNS).where('name', '=', name).executeTakeFirst();
}

export async function insertList(
  { db }: Database,
  accountId: number,
  list: { name: string; description: string },
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('sms_contact_lists')
    .values({ account_id: accountId, ...list, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateList(
  { db }: Database,
  accountId: number,
  id: number,
  list: { name: string; description: string },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('sms_contact_lists')
    .set({ ...list, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Only a list with no import under way; its members are purged afterwards (purgeMembers). */
export const deleteList = (database: Database, accountId: number, id: number) =>
  shared.deleteList(database, SMS_CONTACT_TABLES, accountId, id);

export const SMS_CONTACT_TABLES: ListTables = {
  lists: 'sms_contact_lists',
  members: 'sms_contact_members',
  imports: 'sms_contact_imports',
  key: 'phone',
};

/** A task sent to the list: it is in use, whatever its size (the idle clean-up reads this). */
export const markListUsed = (database: Database, accountId: number, id: number, now: number) =>
  lists.markListUsed(database, SMS_CONTACT_TABLES, accountId, id, now);

/** Empty lists nobody changed or sent to since `before` (product-spec §9: cleaned after a year). */
export const deleteIdleEmptyLists = (database: Database, before: number) =>
  lists.deleteIdleEmptyLists(database, SMS_CONTACT_TABLES, before);

const MEMBERS: ListKind<MemberRow> = { tables: SMS_CONTACT_TABLES, memberColumns: MEMBER_COLUMNS };

/** A page of the list's members in number order (the unique index's order), found by number or name. */
export const listMembers = (
  database: Database,
  list: Pick<ListRow, 'id' | 'pending_import_id' | 'member_count'>,
  filter: { query?: string | undefined; offset: number; limit: number },
) => shared.listMembers(database, MEMBERS, list, filter);

/** The next members after `afterPhone`, in number order: the export reads a list this way. */
export const membersAfter = (
  database: Database,
  list: Pick<ListRow, 'id' | 'pending_import_id'>,
  afterPhone: string,
  limit: number,
) => shared.membersAfter(database, MEMBERS, list, afterPhone, limit);

export async function findMemberByPhone(
  database: Database,
  list: Pick<ListRow, 'id' | 'pending_import_id'>,
  phone: string,
): Promise<MemberRow | undefined> {
  return (await shared.findMembersByKey(database, MEMBERS, list, [phone]))[0];
}

/** A member by its id, if its list is in the account and the member is committed. */
export const findMember = (database: Database, accountId: number, id: number) =>
  shared.findMember(database, MEMBERS, accountId, id);

export interface MemberValues {
  phone: string;
  name: string;
  vars: string | null;
}

/** Why a member change was not made; the service names the error. */
export type MemberRefusal = 'busy_or_full' | 'exists' | 'gone';

const settle = <T>(work: Promise<T>) => shared.settle<T, MemberRefusal>(work);

/** Counts the list one up, if it has room and no import runs; false otherwise. */
async function countUp(trx: Transaction<DB>, listId: number, max: number, varNames: string, now: number) {
  const result = await trx
    .updateTable('sms_contact_lists')
    .set((eb) => ({ member_count: eb('member_count', '+', 1), var_names: varNames, updated_at: now }))
    .where('id', '=', listId)
    .where('pending_import_id', 'is', null)
    .where('member_count', '<', max)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Adds a member and counts it, in one transaction: the count never disagrees with the rows. */
export async function insertMember(
  { db }: Database,
  listId: number,
  member: MemberValues,
  options: { max: number; varNames: string; now: number },
): Promise<number | MemberRefusal> {
  return settle(
    db.transaction().execute(async (trx) => {
      if (!(await countUp(trx, listId, options.max, options.varNames, options.now))) {
        throw new Refused<MemberRefusal>('busy_or_full');
      }
      const row = await trx
        .insertInto('sms_contact_members')
        .values({ list_id: listId, ...member, import_id: null, created_at: options.now })
        .onConflict((oc) => oc.columns(['list_id', 'phone']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!row) throw new Refused<MemberRefusal>('exists');
      return Number(row.id);
    }),
  );
}

export async function updateMember(
  { db }: Database,
  listId: number,
  id: number,
  member: MemberValues,
  options: { varNames: string; now: number },
): Promise<true | MemberRefusal> {
  return settle(
    db.transaction().execute(async (trx) => {
      const list = await trx
        .updateTable('sms_contact_lists')
        .set({ var_names: options.varNames, updated_at: options.now })
        .where('id', '=', listId)
        .where('pending_import_id', 'is', null)
        .executeTakeFirst();
      if (Number(list.numUpdatedRows) !== 1) throw new Refused<MemberRefusal>('busy_or_full');
      const taken = await trx
        .selectFrom('sms_contact_members')
        .select('id')
        .where('list_id', '=', listId)
        .where('phone', '=', member.phone)
        .where('id', '!=', id)
        .executeTakeFirst();
      if (taken) throw new Refused<MemberRefusal>('exists');
      const result = await trx
        .updateTable('sms_contact_members')
        .set(member)
        .where('list_id', '=', listId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw new Refused<MemberRefusal>('gone');
      return true as const;
    }),
  );
}

export async function deleteMember(
  { db }: Database,
  listId: number,
  id: number,
  now: number,
): Promise<true | MemberRefusal> {
  return settle(
    db.transaction().execute(async (trx) => {
      const list = await trx
        .updateTable('sms_contact_lists')
        .set((eb) => ({ member_count: eb('member_count', '-', 1), updated_at: now }))
        .where('id', '=', listId)
        .where('pending_import_id', 'is', null)
        .executeTakeFirst();
      if (Number(list.numUpdatedRows) !== 1) throw new Refused<MemberRefusal>('busy_or_full');
      const result = await trx
        .deleteFrom('sms_contact_members')
        .where('list_id', '=', listId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) !== 1) throw new Refused<MemberRefusal>('gone');
      return true as const;
    }),
  );
}

/** Deletes up to `batch` members of a deleted list; answers how many (repeat until none are left). */
export const purgeMembers = (database: Database, listId: number, batch: number) =>
  lists.purgeMembers(database, SMS_CONTACT_TABLES, listId, batch);
