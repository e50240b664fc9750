import type { Database } from '../../db/database.ts';
import * as repo from './rate-limits.repo.ts';

export interface RateLimitResult {
  allowed: boolean;
  /** How long until the window resets; 0 when the hit was allowed. */
  retryAfterMs: number;
  /** Hits counted in this window, this one included. */
  count: number;
}

/** Keys are IPs, user ids or addresses; anything longer is cut so one row stays small. */
const MAX_KEY_LENGTH = 256;

/**
 * Fixed-window counters kept in the database, so every API process of a cluster shares them
 * without Redis: a hit is one upsert-increment of the (bucket, key, window) row. A fixed window
 * lets a burst of up to twice the limit straddle a boundary; for captcha and login abuse that is
 * an acceptable price for one cheap row per window. Expired windows are deleted by a periodic task.
 */
export class RateLimiter {
  private readonly database: Database;
  private readonly now: () => number;

  constructor(database: Database, options: { now?: () => number } = {}) {
    this.database = database;
    this.now = options.now ?? Date.now;
  }

  async hit(bucket: string, key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = this.now();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const expiresAt = windowStart + windowMs;
    const count = await repo.incrementWindow(this.database, {
      bucket,
      key: key.slice(0, MAX_KEY_LENGTH),
      windowStart,
      expiresAt,
    });
    const allowed = count <= limit;
    return { allowed, retryAfterMs: allowed ? 0 : expiresAt - now, count };
  }

  /** Whether `key` is still under `limit` in the current window, without counting a hit. */
  async check(bucket: string, key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = this.now();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const count = await repo.readWindow(this.database, {
      bucket,
      key: key.slice(0, MAX_KEY_LENGTH),
      windowStart,
    });
    const allowed = count < limit;
    return { allowed, retryAfterMs: allowed ? 0 : windowStart + windowMs - now, count };
  }

  /** Deletes windows that have ended; returns how many. */
  prune(): Promise<number> {
    return repo.deleteExpiredWindows(this.database, this.now());
  }
}
