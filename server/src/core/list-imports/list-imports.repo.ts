import { CompiledQuery } from 'kysely';
import type { Database, Dialect } from '../../db/database.ts';
import type { SmsContactImportsTable } from '../../db/sms-schema.ts';

/**
 * Imports into lists: the import rows (status, progress, counts), the batched writes of their
 * members under the import's id, and the two ways an import ends for the list: commit (one short
 * transaction) or roll back (its rows deleted in batches). Every status change is conditional on
 * the status it leaves, so a cancel and a finishing run cannot both win.
 *
 * Each kind of list has its three tables of the same shape (lists with `pending_import_id`,
 * `member_count` and `var_names`; members with `list_id`, their key, `name`, `vars` and
 * `import_id`; imports as below), named by `ListTables`. The queries are typed against the SMS
 * contact tables, whose columns every kind shares.
 */
export type ImportStatus = SmsContactImportsTable['status'];

export interface ListTables {
  lists: 'sms_contact_lists' | 'address_lists';
  members: 'sms_contact_members' | 'address_list_members';
  imports: 'sms_contact_imports' | 'address_list_imports';
  /** The members' key column: unique in a list with `list_id`. */
  key: 'phone' | 'address';
}

/** The names the typed queries use; every kind's tables have these columns. */
const typed = (t: ListTables) => ({
  lists: t.lists as 'sms_contact_lists',
  members: t.members as 'sms_contact_members',
  imports: t.imports as 'sms_contact_imports',
});

export type ImportRow = {
  id: number;
  account_id: number;
  list_id: number;
  file_name: string;
  format: string;
  file_path: string;
  report_path: string | null;
  lang: string;
  status: ImportStatus;
  bytes_total: number;
  bytes_read: number;
  lines_read: number;
  added: number;
  duplicates: number;
  invalid: number;
  error_code: string | null;
  attempts: number;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
};

export interface ImportCounts {
  bytesRead: number;
  lines: number;
  added: number;
  duplicates: number;
  invalid: number;
}

const COLUMNS = [
  'id',
  'account_id',
  'list_id',
  'file_name',
  'format',
  'file_path',
  'report_path',
  'lang',
  'status',
  'bytes_total',
  'bytes_read',
  'lines_read',
  'added',
  'duplicates',
  'invalid',
  'error_code',
  'attempts',
  'created_at',
  'updated_at',
  'finished_at',
] as const;

const countColumns = (counts: ImportCounts) => ({
  bytes_read: counts.bytesRead,
  lines_read: counts.lines,
  added: counts.added,
  duplicates: counts.duplicates,
  invalid: counts.invalid,
});

/**
 * Records the import and marks it its list's pending one, in one transaction; null when the list
 * is gone or has an import under way already.
 */
export async function createImport(
  { db }: Database,
  tables: ListTables,
  row: Pick<
    ImportRow,
    'account_id' | 'list_id' | 'file_name' | 'format' | 'file_path' | 'lang' | 'bytes_total' | 'created_at'
  >,
): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const list = await trx
      .selectFrom(typed(tables).lists)
      .select('pending_import_id')
      .where('account_id', '=', row.account_id)
      .where('id', '=', row.list_id)
      .executeTakeFirst();
    if (!list || list.pending_import_id !== null) return null;
    const inserted = await trx
      .insertInto(typed(tables).imports)
      .values({ ...row, status: 'queued', updated_at: row.created_at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(inserted.id);
    const marked = await trx
      .updateTable(typed(tables).lists)
      .set({ pending_import_id: id })
      .where('id', '=', row.list_id)
      .where('pending_import_id', 'is', null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) throw new Error('the list took another import meanwhile');
    return id;
  });
}

export async function findImport(
  { db }: Database,
  tables: ListTables,
  id: number,
): Promise<ImportRow | undefined> {
  return db.selectFrom(typed(tables).imports).select(COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function findAccountImport(
  { db }: Database,
  tables: ListTables,
  accountId: number,
  id: number,
): Promise<ImportRow | undefined> {
  return db
    .selectFrom(typed(tables).imports)
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The list's newest import, whatever its state (the screen shows how the last one went). */
export async function latestImport(
  { db }: Database,
  tables: ListTables,
  accountId: number,
  listId: number,
): Promise<ImportRow | undefined> {
  return db
    .selectFrom(typed(tables).imports)
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .where('list_id', '=', listId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** A run starts (again): counts zeroed, one attempt more. False if it was cancelled or has ended. */
export async function startRun(
  { db }: Database,
  tables: ListTables,
  id: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable(typed(tables).imports)
    .set((eb) => ({
      status: 'running',
      attempts: eb('attempts', '+', 1),
      ...countColumns({ bytesRead: 0, lines: 0, added: 0, duplicates: 0, invalid: 0 }),
      report_path: null,
      updated_at: now,
    }))
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The progress so far; false when the import is no longer running (someone cancelled it). */
export async function saveProgress(
  { db }: Database,
  tables: ListTables,
  id: number,
  counts: ImportCounts,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable(typed(tables).imports)
    .set({ ...countColumns(counts), updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setReportPath(
  { db }: Database,
  tables: ListTables,
  id: number,
  path: string,
): Promise<void> {
  await db.updateTable(typed(tables).imports).set({ report_path: path }).where('id', '=', id).execute();
}

/** A cancel of an import no run has started: it ends here, and its list takes changes again. */
export async function cancelQueued(
  { db }: Database,
  tables: ListTables,
  accountId: number,
  id: number,
  now: number,
) {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable(typed(tables).imports)
      .set({ status: 'cancelled', updated_at: now, finished_at: now })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .returning('list_id')
      .executeTakeFirst();
    if (!result) return false;
    await trx
      .updateTable(typed(tables).lists)
      .set({ pending_import_id: null })
      .where('id', '=', Number(result.list_id))
      .where('pending_import_id', '=', id)
      .execute();
    return true;
  });
}

/** A cancel asked for while running; the run sees it at its next batch. */
export async function requestCancel(
  { db }: Database,
  tables: ListTables,
  accountId: number,
  id: number,
  now: number,
) {
  const result = await db
    .updateTable(typed(tables).imports)
    .set({ status: 'cancelling', updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** `INSERT … VALUES (…),(…) ON CONFLICT DO NOTHING RETURNING <key>` of n rows, per dialect and table, kept. */
const insertTexts = new Map<string, string>();

function insertText(dialect: Dialect, tables: ListTables, rows: number): string {
  const key = `${dialect}:${tables.members}:${rows}`;
  let text = insertTexts.get(key);
  if (!text) {
    let n = 0;
    const mark = () => (dialect === 'postgres' ? `$${++n}` : '?');
    const values = Array.from({ length: rows }, () => `(${[1, 2, 3, 4, 5, 6].map(mark).join(',')})`);
    text =
      `insert into ${tables.members} (list_id, ${tables.key}, name, vars, import_id, created_at) values ` +
      `${values.join(',')} on conflict (list_id, ${tables.key}) do nothing returning ${tables.key} as key`;
    insertTexts.set(key, text);
  }
  return text;
}

/** A batch's members in column arrays, as the reading thread hands them over. */
export interface ImportedMembers {
  key: readonly string[];
  name: readonly string[];
  vars: readonly (string | null)[];
}

/**
 * Writes one batch of an import's members under its id, skipping keys the list has already
 * (committed, or earlier in this import), in one statement; answers the keys it wrote. The SQL
 * is prepared text rather than a built query: at a million rows, building it was the cost.
 */
export async function insertImportedMembers(
  database: Database,
  tables: ListTables,
  listId: number,
  importId: number,
  members: ImportedMembers,
  now: number,
): Promise<Set<string>> {
  const count = members.key.length;
  if (count === 0) return new Set();
  const params: unknown[] = new Array(count * 6);
  for (let r = 0, i = 0; r < count; r++) {
    params[i++] = listId;
    params[i++] = members.key[r];
    params[i++] = members.name[r];
    params[i++] = members.vars[r];
    params[i++] = importId;
    params[i++] = now;
  }
  const result = await database.db.executeQuery<{ key: string }>(
    CompiledQuery.raw(insertText(database.dialect, tables, count), params),
  );
  return new Set(result.rows.map((row) => row.key));
}

/**
 * Makes the import's rows part of the list: counts them in and clears the pending mark, with the
 * import marked done, in one transaction. Refused (false) when the list would pass `max` or the
 * import is no longer running (a cancel won the race): then nothing changed.
 */
export async function commitImport(
  { db }: Database,
  tables: ListTables,
  row: Pick<ImportRow, 'id' | 'list_id'>,
  counts: ImportCounts,
  options: { max: number; varNames: string; now: number },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable(typed(tables).imports)
      .set({ status: 'done', ...countColumns(counts), updated_at: options.now, finished_at: options.now })
      .where('id', '=', row.id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) return false;
    const list = await trx
      .updateTable(typed(tables).lists)
      .set((eb) => ({
        member_count: eb('member_count', '+', counts.added),
        var_names: options.varNames,
        pending_import_id: null,
        updated_at: options.now,
      }))
      .where('id', '=', row.list_id)
      .where('pending_import_id', '=', row.id)
      .where('member_count', '<=', options.max - counts.added)
      .executeTakeFirst();
    if (Number(list.numUpdatedRows) !== 1) throw new Error('the list would pass its cap or lost its import');
    return true;
  });
}

/** Deletes up to `batch` rows the import wrote; answers how many (repeat until 0). */
export async function deleteImportedBatch(
  { db }: Database,
  tables: ListTables,
  importId: number,
  batch: number,
): Promise<number> {
  const result = await db
    .deleteFrom(typed(tables).members)
    .where('id', 'in', (eb) =>
      eb.selectFrom(typed(tables).members).select('id').where('import_id', '=', importId).limit(batch),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The end of an import that changed nothing (its rows are deleted already): the list takes changes
 * again and the import records why it ended.
 */
export async function endWithoutChange(
  { db }: Database,
  tables: ListTables,
  row: Pick<ImportRow, 'id' | 'list_id'>,
  status: 'failed' | 'cancelled',
  errorCode: string | null,
  counts: ImportCounts | null,
  now: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable(typed(tables).lists)
      .set({ pending_import_id: null })
      .where('id', '=', row.list_id)
      .where('pending_import_id', '=', row.id)
      .execute();
    await trx
      .updateTable(typed(tables).imports)
      .set({
        status,
        error_code: errorCode,
        ...(counts ? countColumns(counts) : {}),
        updated_at: now,
        finished_at: now,
      })
      .where('id', '=', row.id)
      .where('status', 'not in', ['done', 'failed', 'cancelled'])
      .execute();
  });
}

/** Ended imports finished before `before`, whose files may go. */
export async function endedBefore(
  { db }: Database,
  tables: ListTables,
  before: number,
  limit: number,
): Promise<ImportRow[]> {
  return db
    .selectFrom(typed(tables).imports)
    .select(COLUMNS)
    .where('status', 'in', ['done', 'failed', 'cancelled'])
    .where('finished_at', '<', before)
    .limit(limit)
    .execute();
}

export async function deleteImport({ db }: Database, tables: ListTables, id: number): Promise<void> {
  await db.deleteFrom(typed(tables).imports).where('id', '=', id).execute();
}

/**
 * Deletes up to `batch` members of a deleted list (or of any list id no row names any more);
 * answers how many, so the caller repeats until none are left.
 */
export async function purgeMembers(
  { db }: Database,
  tables: ListTables,
  listId: number,
  batch: number,
): Promise<number> {
  const members = typed(tables).members;
  const result = await db
    .deleteFrom(members)
    .where('id', 'in', (eb) => eb.selectFrom(members).select('id').where('list_id', '=', listId).limit(batch))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A task sent to the list: it is in use, whatever its size (the idle clean-up reads this). */
export async function markListUsed(
  { db }: Database,
  tables: ListTables,
  accountId: number,
  id: number,
  now: number,
): Promise<void> {
  await db
    .updateTable(typed(tables).lists)
    .set({ last_used_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

/** Empty lists nobody changed or sent to since `before` (product-spec §9: cleaned after a year). */
export async function deleteIdleEmptyLists(
  { db }: Database,
  tables: ListTables,
  before: number,
): Promise<number> {
  const result = await db
    .deleteFrom(typed(tables).lists)
    .where('member_count', '=', 0)
    .where('pending_import_id', 'is', null)
    .where('updated_at', '<', before)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', before)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
