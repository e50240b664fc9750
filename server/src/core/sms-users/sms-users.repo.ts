import type { Database } from '../../db/database.ts';
import { hashApiKey } from '../api-users/api-keys.repo.ts';

/** The SQL of SMS_USERs and their SMS_KEYs (migration 0029). */
export interface SmsUserRow {
  id: number;
  name: string;
  c_type: 'normal' | 'test';
  created_at: number;
}

export function listSmsUsers({ db }: Database, accountId: number): Promise<SmsUserRow[]> {
  return db
    .selectFrom('sms_users')
    .select(['id', 'name', 'c_type', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

export function findSmsUser(
  { db }: Database,
  accountId: number,
  id: number,
): Promise<SmsUserRow | undefined> {
  return db
    .selectFrom('sms_users')
    .select(['id', 'name', 'c_type', 'created_at'])
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function isNameTaken({ db }: Database, name: string): Promise<boolean> {
  const row = await db.selectFrom('sms_users').select('id').where('name', '=', name).executeTakeFirst();
  return row !== undefined;
}

export async function countSmsUsers({ db }: Database, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('sms_users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertSmsUser(
  { db }: Database,
  accountId: number,
  values: { name: string; cType: 'normal' | 'test' },
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('sms_users')
    .values({ account_id: accountId, name: values.name, c_type: values.cType, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function insertKey(
  { db }: Database,
  accountId: number,
  smsUserId: number,
  key: string,
  keySealed: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('sms_keys')
    .values({
      account_id: accountId,
      sms_user_id: smsUserId,
      key_hash: hashApiKey(key),
      key_hint: key.slice(-4),
      key_sealed: keySealed,
      created_at: now,
      expires_at: null,
    })
    .execute();
}

/** The keys that still work, newest first. */
export function liveKeys({ db }: Database, accountId: number, smsUserIds: number[], now: number) {
  if (smsUserIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('sms_keys')
    .select(['sms_user_id', 'key_hint', 'created_at', 'expires_at'])
    .where('account_id', '=', accountId)
    .where('sms_user_id', 'in', smsUserIds)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('id', 'desc')
    .execute();
}

/** A reset: expired keys go, the current ones expire at `expiresAt`, earlier-expiring ones keep theirs. */
export async function expireKeys(
  { db }: Database,
  accountId: number,
  smsUserId: number,
  expiresAt: number,
  now: number,
): Promise<void> {
  await db
    .deleteFrom('sms_keys')
    .where('account_id', '=', accountId)
    .where('sms_user_id', '=', smsUserId)
    .where('expires_at', '<=', now)
    .execute();
  await db
    .updateTable('sms_keys')
    .set({ expires_at: expiresAt })
    .where('account_id', '=', accountId)
    .where('sms_user_id', '=', smsUserId)
    .where('expires_at', 'is', null)
    .execute();
}

/** The SMS_USER an SMS_KEY belongs to, when the name matches. */
export function findByCredentials({ db }: Database, name: string, keyHash: string) {
  return db
    .selectFrom('sms_keys')
    .innerJoin('sms_users', 'sms_users.id', 'sms_keys.sms_user_id')
    .select([
      'sms_users.id',
      'sms_users.account_id',
      'sms_users.name',
      'sms_users.c_type',
      'sms_keys.expires_at',
    ])
    .where('sms_keys.key_hash', '=', keyHash)
    .where('sms_users.name', '=', name)
    .executeTakeFirst();
}

/** The sealed live keys of the SMS_USER of this name, for checking a request signature. */
export function sealedKeysByName({ db }: Database, name: string, now: number) {
  return db
    .selectFrom('sms_keys')
    .innerJoin('sms_users', 'sms_users.id', 'sms_keys.sms_user_id')
    .select([
      'sms_users.id',
      'sms_users.account_id',
      'sms_users.name',
      'sms_users.c_type',
      'sms_keys.key_sealed',
      'sms_keys.expires_at',
    ])
    .where('sms_users.name', '=', name)
    .where('sms_keys.key_sealed', 'is not', null)
    .where((eb) => eb.or([eb('sms_keys.expires_at', 'is', null), eb('sms_keys.expires_at', '>', now)]))
    .execute();
}
