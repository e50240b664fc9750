import { timingSafeEqual } from 'node:crypto';
import { AppError } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { ApiUserRef, KeyCaller } from '../context.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';
import { findKeyByCredentials, hashApiKey } from './api-keys.repo.ts';

// Fixtures, the e2e harness and the benchmarks hash their keys through this module.
export { hashApiKey };

/** The API_USER a row of `api_users` describes, as a KeyCaller carries it. */
export function apiUserRefOf(row: {
  id: number | bigint;
  name: string;
  email_type: ApiUserRef['emailType'];
  c_type: ApiUserRef['cType'];
  domain_id: number | bigint | null;
}): ApiUserRef {
  return {
    id: Number(row.id),
    name: row.name,
    emailType: row.email_type,
    cType: row.c_type,
    domainId: row.domain_id === null ? null : Number(row.domain_id),
  };
}

const CACHE_MS = 30_000;
const CACHE_MAX = 10_000;

/**
 * Failed key checks allowed per window before further tries are refused (the right key too):
 * per client address, and per API_USER (higher, so one address guessing cannot shut out the
 * API_USER's own clients, which keep working from the cache of successful checks).
 */
export const AUTH_FAILURE_LIMITS = { perAddress: 20, perApiUser: 100, windowMs: 5 * 60_000 };

/**
 * Checks apiUser + apiKey. A key is valid while it has no expiry or its expiry (set when the key
 * was reset) is still ahead. Successful checks are remembered for 30 seconds per process, so a
 * busy client does not cost a query per message; `forget` drops an API_USER at once after a
 * change made through this process.
 */
export class ApiUserAuth {
  private readonly database: Database;
  private readonly now: () => number;
  private readonly cache = new Map<string, { caller: KeyCaller; until: number; keyExpiresAt: number }>();
  private readonly limiter: RateLimiter | undefined;

  constructor(database: Database, options: { now?: () => number; limiter?: RateLimiter } = {}) {
    this.database = database;
    this.now = options.now ?? Date.now;
    this.limiter = options.limiter;
  }

  /**
   * `clientAddress`: where the try came from, for the throttle of failed tries (API_AUTH_THROTTLED
   * once an address or an API_USER has failed too often in the window).
   */
  async authenticate(apiUser: string, apiKey: string, clientAddress?: string): Promise<KeyCaller> {
    const keyHash = apiKey ? hashApiKey(apiKey) : '';
    const cacheKey = `${apiUser}\n${keyHash}`;
    const now = this.now();
    const hit = this.cache.get(cacheKey);
    if (apiUser && apiKey && hit && hit.until > now && hit.keyExpiresAt > now) return hit.caller;

    await this.requireUnthrottled(apiUser, clientAddress);
    const row = apiUser && apiKey ? await findKeyByCredentials(this.database, apiUser, keyHash) : undefined;
    const valid =
      row !== undefined &&
      timingSafeEqual(Buffer.from(row.key_hash), Buffer.from(keyHash)) &&
      (row.expires_at === null || Number(row.expires_at) > now);
    if (!valid || !row) {
      await this.recordFailure(apiUser, clientAddress);
      throw new AppError('API_AUTH_FAILED');
    }

    const caller: KeyCaller = {
      accountId: Number(row.account_id),
      apiUser: {
        id: Number(row.id),
        name: row.name,
        emailType: row.email_type,
        cType: row.c_type,
        domainId: row.domain_id === null ? null : Number(row.domain_id),
      },
    };
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(cacheKey, {
      caller,
      until: now + CACHE_MS,
      keyExpiresAt: row.expires_at === null ? Number.POSITIVE_INFINITY : Number(row.expires_at),
    });
    return caller;
  }

  private async requireUnthrottled(apiUser: string, clientAddress: string | undefined): Promise<void> {
    if (!this.limiter) return;
    const { perAddress, perApiUser, windowMs } = AUTH_FAILURE_LIMITS;
    const checks = await Promise.all([
      clientAddress ? this.limiter.check('api-auth-address', clientAddress, perAddress, windowMs) : null,
      apiUser ? this.limiter.check('api-auth-user', apiUser, perApiUser, windowMs) : null,
    ]);
    const refused = checks.find((c) => c && !c.allowed);
    if (refused) {
      throw new AppError('API_AUTH_THROTTLED', {
        minutes: Math.max(1, Math.ceil(refused.retryAfterMs / 60_000)),
      });
    }
  }

  private async recordFailure(apiUser: string, clientAddress: string | undefined): Promise<void> {
    if (!this.limiter) return;
    const { perAddress, perApiUser, windowMs } = AUTH_FAILURE_LIMITS;
    await Promise.all([
      clientAddress ? this.limiter.hit('api-auth-address', clientAddress, perAddress, windowMs) : null,
      apiUser ? this.limiter.hit('api-auth-user', apiUser, perApiUser, windowMs) : null,
    ]);
  }

  /** Drops what this process remembers of an API_USER (after a reset, rebinding or deletion). */
  forget(apiUser: string): void {
    for (const key of this.cache.keys()) if (key.startsWith(`${apiUser}\n`)) this.cache.delete(key);
  }
}
