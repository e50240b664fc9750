import type { Database } from '../../db/database.ts';

/** Attachments of timed tasks (migration 0050): uploaded first, then named by a task. */
export interface FileRow {
  id: number;
  task_id: number | null;
  name: string;
  content_type: string;
  size: number;
  created_at: number;
}

const COLUMNS = ['id', 'task_id', 'name', 'content_type', 'size', 'created_at'] as const;

const normalize = (row: FileRow): FileRow => ({
  ...row,
  id: Number(row.id),
  task_id: row.task_id === null ? null : Number(row.task_id),
  size: Number(row.size),
  created_at: Number(row.created_at),
});

export async function insertFile(
  { db }: Database,
  accountId: number,
  file: { name: string; contentType: string; content: Buffer },
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('timed_task_files')
    .values({
      account_id: accountId,
      task_id: null,
      name: file.name,
      content_type: file.contentType,
      size: file.content.length,
      content: file.content,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The account's files of these ids. */
export async function findFiles({ db }: Database, accountId: number, ids: number[]): Promise<FileRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('timed_task_files')
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
  return rows.map(normalize);
}

/** The files of these tasks, in upload order. */
export async function filesOfTasks(
  { db }: Database,
  accountId: number,
  taskIds: number[],
): Promise<FileRow[]> {
  if (taskIds.length === 0) return [];
  const rows = await db
    .selectFrom('timed_task_files')
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .where('task_id', 'in', taskIds)
    .orderBy('id')
    .execute();
  return rows.map(normalize);
}

/** The task's files with their content, as its mail carries them. */
export async function contentsOfTask({ db }: Database, accountId: number, taskId: number) {
  const rows = await db
    .selectFrom('timed_task_files')
    .select(['name', 'content_type', 'content'])
    .where('account_id', '=', accountId)
    .where('task_id', '=', taskId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    filename: r.name,
    contentType: r.content_type,
    content: Buffer.from(r.content),
  }));
}

/** Makes the task hold exactly these files: files it held and no longer names are deleted. */
export async function attachFiles({ db }: Database, accountId: number, taskId: number, ids: number[]) {
  let release = db
    .deleteFrom('timed_task_files')
    .where('account_id', '=', accountId)
    .where('task_id', '=', taskId);
  if (ids.length > 0) release = release.where('id', 'not in', ids);
  await release.execute();
  if (ids.length === 0) return;
  await db
    .updateTable('timed_task_files')
    .set({ task_id: taskId })
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
}

/** Uploads no task named before `before` (an abandoned form). */
export async function deleteUnattached({ db }: Database, accountId: number, before: number): Promise<void> {
  await db
    .deleteFrom('timed_task_files')
    .where('account_id', '=', accountId)
    .where('task_id', 'is', null)
    .where('created_at', '<', before)
    .execute();
}
