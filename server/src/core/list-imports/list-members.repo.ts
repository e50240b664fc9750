import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import { containing } from '../../db/like-pattern.ts';
import type { DB } from '../../db/schema.ts';
import type { ListTables } from './list-imports.repo.ts';

/**
 * What every kind of list does alike with its members outside an import: the page of a list's
 * members found by key or name, the export's walk in key order, a member by id within the
 * account, and a list's deletion. Each kind names its tables and the member columns it reads
 * (`ListKind`); the queries are typed against the SMS contact tables, as in list-imports.repo.ts,
 * and a kind's own repo gives them its row type. Member reads leave out the rows of the list's
 * pending import: they are not part of it until the import commits.
 */
export interface ListKind<Row> {
  tables: ListTables;
  /** The member columns the kind reads, its key among them. */
  memberColumns: readonly (keyof Row & string)[];
}

type Members = 'sms_contact_members';
type MemberColumn = keyof DB[Members] & string;

const membersTable = (tables: ListTables) => tables.members as Members;
const keyColumn = (tables: ListTables) => tables.key as 'phone';
const columnsOf = <Row>(kind: ListKind<Row>) => kind.memberColumns as readonly MemberColumn[];

/** The list as its member reads need it. */
type ListRef = { id: number; pending_import_id: number | null };

/** The list's committed members. */
function visible<O>(query: SelectQueryBuilder<DB, Members, O>, list: ListRef) {
  const scoped = query.where('list_id', '=', list.id);
  const pending = list.pending_import_id;
  if (pending === null) return scoped;
  return scoped.where((eb: ExpressionBuilder<DB, Members>) =>
    eb.or([eb('import_id', 'is', null), eb('import_id', '!=', pending)]),
  );
}

/** A page of the list's members in key order (the unique index's), found by key or name. */
export async function listMembers<Row>(
  { db }: Database,
  kind: ListKind<Row>,
  list: ListRef & { member_count: number },
  filter: { query?: string | undefined; offset: number; limit: number },
): Promise<{ rows: Row[]; total: number }> {
  const key = keyColumn(kind.tables);
  let query = visible(db.selectFrom(membersTable(kind.tables)), list);
  const pattern = filter.query ? containing(filter.query.toLowerCase()) : '';
  if (pattern) {
    query = query.where((eb) =>
      eb.or([eb(key, 'like', pattern), eb(eb.fn('lower', ['name']), 'like', pattern)]),
    );
  }
  const rows = await query
    .select(columnsOf(kind))
    .orderBy(key)
    .offset(filter.offset)
    .limit(filter.limit)
    .execute();
  if (!pattern) return { rows: rows as Row[], total: Number(list.member_count) };
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows: rows as Row[], total: Number(total.n) };
}

/** The next members after the key `after`, in key order: an export reads a list this way. */
export async function membersAfter<Row>(
  { db }: Database,
  kind: ListKind<Row>,
  list: ListRef,
  after: string,
  limit: number,
): Promise<Row[]> {
  const key = keyColumn(kind.tables);
  const rows = await visible(db.selectFrom(membersTable(kind.tables)), list)
    .where(key, '>', after)
    .select(columnsOf(kind))
    .orderBy(key)
    .limit(limit)
    .execute();
  return rows as Row[];
}

/** The list's members with these keys, in key order. */
export async function findMembersByKey<Row>(
  { db }: Database,
  kind: ListKind<Row>,
  list: ListRef,
  keys: string[],
): Promise<Row[]> {
  if (keys.length === 0) return [];
  const key = keyColumn(kind.tables);
  const rows = await visible(db.selectFrom(membersTable(kind.tables)), list)
    .where(key, 'in', keys)
    .select(columnsOf(kind))
    .orderBy(key)
    .execute();
  return rows as Row[];
}

/** A member by its id, if its list is in the account and the member is committed. */
export async function findMember<Row>(
  { db }: Database,
  kind: ListKind<Row>,
  accountId: number,
  id: number,
): Promise<Row | undefined> {
  const { lists, members } = kind.tables;
  const row = await db
    .selectFrom(`${members} as m` as 'sms_contact_members as m')
    .innerJoin(`${lists} as l` as 'sms_contact_lists as l', 'l.id', 'm.list_id')
    .where('l.account_id', '=', accountId)
    .where('m.id', '=', id)
    .where((eb) =>
      eb.or([
        eb('l.pending_import_id', 'is', null),
        eb('m.import_id', 'is', null),
        eb('m.import_id', '!=', eb.ref('l.pending_import_id')),
      ]),
    )
    .select(columnsOf(kind).map((column) => `m.${column}` as const))
    .executeTakeFirst();
  return row as Row | undefined;
}

/** Only a list with no import under way; its members are purged afterwards (purgeMembers). */
export async function deleteList(
  { db }: Database,
  tables: ListTables,
  accountId: number,
  id: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom(tables.lists as 'sms_contact_lists')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('pending_import_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Ends a member change's transaction with why it was not made; `settle` answers the reason. */
export class Refused<Reason extends string> extends Error {
  readonly reason: Reason;
  constructor(reason: Reason) {
    super(reason);
    this.reason = reason;
  }
}

/** The transaction's result, or the reason it was refused (its writes rolled back). */
export async function settle<T, Reason extends string>(work: Promise<T>): Promise<T | Reason> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof Refused) return error.reason as Reason;
    throw error;
  }
}
