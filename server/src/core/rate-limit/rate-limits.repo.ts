import type { Database } from '../../db/database.ts';

/** Adds one hit to the (bucket, key, window) counter, creating it, and returns the new count. */
export async function incrementWindow(
  { db }: Database,
  hit: { bucket: string; key: string; windowStart: number; expiresAt: number },
): Promise<number> {
  const row = await db
    .insertInto('rate_limits')
    .values({
      bucket: hit.bucket,
      key: hit.key,
      window_start: hit.windowStart,
      count: 1,
      expires_at: hit.expiresAt,
    })
    .onConflict((oc) =>
      oc
        .columns(['bucket', 'key', 'window_start'])
        .doUpdateSet((eb) => ({ count: eb('rate_limits.count', '+', 1) })),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function deleteExpiredWindows({ db }: Database, now: number): Promise<number> {
  const result = await db.deleteFrom('rate_limits').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The (bucket, key, window) counter without adding to it; 0 when there is none. */
export async function readWindow(
  { db }: Database,
  window: { bucket: string; key: string; windowStart: number },
): Promise<number> {
  const row = await db
    .selectFrom('rate_limits')
    .select('count')
    .where('bucket', '=', window.bucket)
    .where('key', '=', window.key)
    .where('window_start', '=', window.windowStart)
    .executeTakeFirst();
  return row ? Number(row.count) : 0;
}
