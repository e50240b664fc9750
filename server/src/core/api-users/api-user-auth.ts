import { timingSafeEqual } from 'node:crypto';
import { AppError } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { ApiUserRef, KeyCaller } from '../context.ts';
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
 * Checks apiUser + apiKey. A key is valid while it has no expiry or its expiry (set when the key
 * was reset) is still ahead. Successful checks are remembered for 30 seconds per process, so a
 * busy client does not cost a query per message; `forget` drops an API_USER at once after a
 * change made through this process.
 */
export class ApiUserAuth {
  private readonly database: Database;
  private readonly now: () => number;
  private readonly cache = new Map<string, { caller: KeyCaller; until: number; keyExpiresAt: number }>();

  constructor(database: Database, options: { now?: () => number } = {}) {
    this.database = database;
    this.now = options.now ?? Date.now;
  }

  async authenticate(apiUser: string, apiKey: string): Promise<KeyCaller> {
    if (!apiUser || !apiKey) throw new AppError('API_AUTH_FAILED');
    const keyHash = hashApiKey(apiKey);
    const cacheKey = `${apiUser}\n${keyHash}`;
    const now = this.now();
    const hit = this.cache.get(cacheKey);
    if (hit && hit.until > now && hit.keyExpiresAt > now) return hit.caller;

    const row = await findKeyByCredentials(this.database, apiUser, keyHash);
    const valid =
      row !== undefined &&
      timingSafeEqual(Buffer.from(row.key_hash), Buffer.from(keyHash)) &&
      (row.expires_at === null || Number(row.expires_at) > now);
    if (!valid) throw new AppError('API_AUTH_FAILED');

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

  /** Drops what this process remembers of an API_USER (after a reset, rebinding or deletion). */
  forget(apiUser: string): void {
    for (const key of this.cache.keys()) if (key.startsWith(`${apiUser}\n`)) this.cache.delete(key);
  }
}
