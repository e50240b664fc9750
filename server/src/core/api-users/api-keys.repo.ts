import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../../db/database.ts';

/** API_KEYs are 32 random bytes, so one SHA-256 is as strong as a slow hash and costs nothing per send. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * API_KEYs: 32 random bytes as base64url (43 characters), shown once when created or reset and
 * kept only as hashApiKey() plus the last four characters (the hint that tells keys apart).
 */
export function generateApiKey(): string {
  return randomBytes(32).toString('base64url');
}

export interface KeyRow {
  id: number;
  key_hint: string;
  created_at: number;
  expires_at: number | null;
}

/** The key with that hash, if it belongs to the API_USER of that name, with the API_USER. */
export async function findKeyByCredentials({ db }: Database, apiUser: string, keyHash: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('api_users', 'api_users.id', 'api_keys.api_user_id')
    .select([
      'api_keys.key_hash',
      'api_keys.expires_at',
      'api_users.id',
      'api_users.account_id',
      'api_users.name',
      'api_users.email_type',
      'api_users.c_type',
      'api_users.domain_id',
    ])
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_users.name', '=', apiUser)
    .executeTakeFirst();
}

export async function insertKey(
  { db }: Database,
  accountId: number,
  apiUserId: number,
  key: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('api_keys')
    .values({
      account_id: accountId,
      api_user_id: apiUserId,
      key_hash: hashApiKey(key),
      key_hint: key.slice(-4),
      created_at: now,
      expires_at: null,
    })
    .execute();
}

/** The keys that still work, newest first. */
export async function liveKeys({ db }: Database, accountId: number, apiUserIds: number[], now: number) {
  if (apiUserIds.length === 0) return [];
  return db
    .selectFrom('api_keys')
    .select(['id', 'api_user_id', 'key_hint', 'created_at', 'expires_at'])
    .where('account_id', '=', accountId)
    .where('api_user_id', 'in', apiUserIds)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('id', 'desc')
    .execute();
}

/**
 * A reset: keys already past their expiry go, keys without one expire at `expiresAt`, keys
 * already expiring (an earlier reset) keep their earlier time.
 */
export async function expireKeys(
  { db }: Database,
  accountId: number,
  apiUserId: number,
  expiresAt: number,
  now: number,
): Promise<void> {
  await db
    .deleteFrom('api_keys')
    .where('account_id', '=', accountId)
    .where('api_user_id', '=', apiUserId)
    .where('expires_at', '<=', now)
    .execute();
  await db
    .updateTable('api_keys')
    .set({ expires_at: expiresAt })
    .where('account_id', '=', accountId)
    .where('api_user_id', '=', apiUserId)
    .where('expires_at', 'is', null)
    .execute();
}
