import type { Database } from '../../db/database.ts';
import type { UploadedFilesTable } from '../../db/schema.ts';

/** The SQL of compliance uploads (migration 0031). */
export interface UploadRow {
  id: number;
  account_id: number;
  purpose: UploadedFilesTable['purpose'];
  name: string;
  content_type: UploadedFilesTable['content_type'];
  size: number;
  attached_to: string | null;
  created_at: number;
}

const COLUMNS = [
  'id',
  'account_id',
  'purpose',
  'name',
  'content_type',
  'size',
  'attached_to',
  'created_at',
] as const;

function normalize(row: UploadRow): UploadRow {
  return {
    ...row,
    id: Number(row.id),
    account_id: Number(row.account_id),
    size: Number(row.size),
    created_at: Number(row.created_at),
  };
}

export async function insertUpload(
  { db }: Database,
  accountId: number,
  file: Pick<UploadRow, 'purpose' | 'name' | 'content_type'> & { content: Buffer },
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('uploaded_files')
    .values({
      account_id: accountId,
      purpose: file.purpose,
      name: file.name,
      content_type: file.content_type,
      size: file.content.length,
      content: file.content,
      attached_to: null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The account's files of these ids (any account's when accountId is null: the operators' view). */
export async function findUploads(
  { db }: Database,
  accountId: number | null,
  ids: number[],
): Promise<UploadRow[]> {
  if (ids.length === 0) return [];
  let query = db.selectFrom('uploaded_files').select(COLUMNS).where('id', 'in', ids);
  if (accountId !== null) query = query.where('account_id', '=', accountId);
  return (await query.execute()).map(normalize);
}

export async function readContent(
  { db }: Database,
  accountId: number | null,
  id: number,
): Promise<(UploadRow & { content: Buffer }) | undefined> {
  let query = db
    .selectFrom('uploaded_files')
    .select([...COLUMNS, 'content'])
    .where('id', '=', id);
  if (accountId !== null) query = query.where('account_id', '=', accountId);
  const row = await query.executeTakeFirst();
  return row ? { ...normalize(row), content: Buffer.from(row.content) } : undefined;
}

/** Names `owner` as the holder of exactly these files: others it held are deleted. */
export async function attachUploads(
  { db }: Database,
  accountId: number,
  owner: string,
  ids: number[],
): Promise<void> {
  let release = db
    .deleteFrom('uploaded_files')
    .where('account_id', '=', accountId)
    .where('attached_to', '=', owner);
  if (ids.length > 0) release = release.where('id', 'not in', ids);
  await release.execute();
  if (ids.length === 0) return;
  await db
    .updateTable('uploaded_files')
    .set({ attached_to: owner })
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
}

export async function deleteAttached({ db }: Database, accountId: number, owner: string): Promise<void> {
  await db
    .deleteFrom('uploaded_files')
    .where('account_id', '=', accountId)
    .where('attached_to', '=', owner)
    .execute();
}

/** Files uploaded before `before` that nothing names (an abandoned form). */
export async function deleteUnattached({ db }: Database, accountId: number, before: number): Promise<void> {
  await db
    .deleteFrom('uploaded_files')
    .where('account_id', '=', accountId)
    .where('attached_to', 'is', null)
    .where('created_at', '<', before)
    .execute();
}
