import type { ExportStatus, ExportType, OpenClickExportInput } from '@herald/shared';
import type { Insertable, Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DataExportOfflinesTable } from '../../db/export-schema.ts';

/** SQL of offline exports. Every call by a user is scoped to the account; the job goes by id. */

const COLUMNS = [
  'e.id',
  'e.account_id',
  'e.type',
  'e.filter',
  'e.start_time',
  'e.end_time',
  'e.lang',
  'e.status',
  'e.progress',
  'e.row_count',
  'e.file_path',
  'e.file_size',
  'e.error',
  'e.created_at',
  'e.finished_at',
  'e.expires_at',
  'e.downloaded_at',
  'u.username as requested_by',
] as const;

function base({ db }: Database) {
  return db
    .selectFrom('data_export_offlines as e')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .select(COLUMNS);
}

export type ExportRow = Awaited<ReturnType<typeof findById>> & {};

export async function insert({ db }: Database, values: Insertable<DataExportOfflinesTable>): Promise<number> {
  const row = await db
    .insertInto('data_export_offlines')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export function findById(database: Database, id: number) {
  return base(database).where('e.id', '=', id).executeTakeFirst();
}

export function find(database: Database, accountId: number, id: number) {
  return base(database).where('e.account_id', '=', accountId).where('e.id', '=', id).executeTakeFirst();
}

/** Newest first, of the given types; deleted exports are not listed. */
export function list(
  database: Database,
  accountId: number,
  types: readonly ExportType[],
  page: { offset: number; limit: number },
) {
  return base(database)
    .where('e.account_id', '=', accountId)
    .where('e.type', 'in', [...types])
    .where('e.status', '!=', 'deleted')
    .orderBy('e.id', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

/** Of the account (all types unless `types` is given), in `statuses` or else not deleted. */
export async function count(
  { db }: Database,
  accountId: number,
  statuses?: ExportStatus[],
  types?: readonly ExportType[],
): Promise<number> {
  let q = db
    .selectFrom('data_export_offlines')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('account_id', '=', accountId);
  q = statuses ? q.where('status', 'in', statuses) : q.where('status', '!=', 'deleted');
  if (types) q = q.where('type', 'in', [...types]);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Changes an export only while it is in one of `from`: the job and the user race (a void during
 * the run, a retry of a failed one), and the loser must see that it lost. Returns whether it won.
 */
export async function transition(
  { db }: Database,
  id: number,
  from: readonly ExportStatus[],
  values: Updateable<DataExportOfflinesTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('data_export_offlines')
    .set(values)
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Ready files whose keeping time has passed. */
export function dueToExpire({ db }: Database, now: number, limit: number) {
  return db
    .selectFrom('data_export_offlines')
    .select(['id', 'file_path'])
    .where('status', 'in', ['using', 'used'])
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

export async function hideExport({ db }: Database, accountId: number): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select('hide_export')
    .where('id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.hide_export ?? 0) === 1;
}

export async function setHideExport({ db }: Database, accountId: number, hidden: boolean, now: number) {
  await db
    .updateTable('accounts')
    .set({ hide_export: hidden ? 1 : 0, updated_at: now })
    .where('id', '=', accountId)
    .execute();
}

function openClickEvents({ db }: Database, accountId: number, f: OpenClickExportInput) {
  let q = db
    .selectFrom('mail_events')
    .where('account_id', '=', accountId)
    .where('kind', 'in', f.kind ? [f.kind] : ['open', 'click'])
    .where('at', '>=', f.startTime)
    .where('at', '<=', f.endTime);
  const email = f.email?.trim();
  if (email) q = q.where('recipient', 'in', [...new Set([email, email.toLowerCase()])]);
  if (f.apiUserId) q = q.where('api_user_id', '=', f.apiUserId);
  if (f.labelId) q = q.where('label_id', '=', f.labelId);
  return q;
}

/** How many open/click events an open/click export will write. */
export async function countOpenClickEvents(
  database: Database,
  accountId: number,
  f: OpenClickExportInput,
): Promise<number> {
  const row = await openClickEvents(database, accountId, f)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A page of an open/click export: the events after id `after`, oldest first. */
export function openClickEventsPage(
  database: Database,
  accountId: number,
  f: OpenClickExportInput,
  after: number,
  limit: number,
) {
  return openClickEvents(database, accountId, f)
    .select(['id', 'at', 'kind', 'email_id', 'recipient', 'data'])
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit)
    .execute();
}
