import path from 'node:path';
import type { Herald } from '@herald/test-peers';
import { type Database, openDatabase } from '../../server/src/db/database.ts';

/**
 * The database of a running Herald, opened beside the process for one piece of work (writing the
 * rows a set-up screen would leave, reading what the server recorded) and closed again.
 */
export async function withHeraldDatabase<T>(
  herald: Herald,
  run: (database: Database) => Promise<T>,
): Promise<T> {
  const database = openDatabase({ kind: 'sqlite', file: path.join(herald.dataDir, 'herald.db') });
  try {
    return await run(database);
  } finally {
    await database.close();
  }
}
