import type { Database } from '../../db/database.ts';
import type { NodesTable } from '../../db/schema.ts';

export type NodeRow = NodesTable;

export async function insertNode({ db }: Database, row: NodeRow): Promise<void> {
  await db.insertInto('nodes').values(row).execute();
}

export async function touchNode({ db }: Database, id: string, now: number): Promise<void> {
  await db.updateTable('nodes').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function stopNode({ db }: Database, id: string, now: number): Promise<void> {
  await db.updateTable('nodes').set({ stopped_at: now, last_seen_at: now }).where('id', '=', id).execute();
}

export async function listNodes({ db }: Database): Promise<NodeRow[]> {
  return db.selectFrom('nodes').selectAll().orderBy('started_at', 'desc').execute();
}

export async function deleteNodesSeenBefore({ db }: Database, before: number): Promise<number> {
  const result = await db.deleteFrom('nodes').where('last_seen_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
