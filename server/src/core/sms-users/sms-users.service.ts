import { createHash, timingSafeEqual } from 'node:crypto';
import {
  AppError,
  type IssuedSmsKey,
  type ReissuedSmsKey,
  SMS_USER_MAX,
  type SmsKeyResetInput,
  type SmsUserCreateInput,
  type SmsUserView,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { generateApiKey, hashApiKey } from '../api-users/api-keys.repo.ts';
import { lockAccount } from '../api-users/api-users.repo.ts';
import type { Caller, SessionCaller } from '../context.ts';
import type { SensitiveVerificationService } from '../sensitive-verification/sensitive-verification.service.ts';
import * as repo from './sms-users.repo.ts';

export interface SmsUsersDeps {
  database: Database;
  verification: SensitiveVerificationService;
  secretBox: SecretBox;
  now?: () => number;
}

/** An SMS_USER a client proved it holds the key of: what the SMS API will send as. */
export interface SmsUserRef {
  id: number;
  accountId: number;
  name: string;
  cType: 'normal' | 'test';
}

/**
 * SMS_USERs (product-spec §3, §5, §9): created with a name of 4-20 letters, digits or
 * underscores, unique on the platform, at most five per account (counted under the account's row
 * lock, so two creations cannot both pass), never edited or deleted. The SMS_KEY is 32 random
 * bytes shown once, kept as its SHA-256 and last four characters; a reset, after a recent identity
 * verification, leaves the old key working the chosen 15-60 minutes beside the new one.
 */
export class SmsUsersService {
  private readonly deps: SmsUsersDeps;
  private readonly now: () => number;
  private readonly keyCache = new Map<
    string,
    { keys: { key: string; expiresAt: number | null; user: SmsUserRef }[]; until: number }
  >();

  constructor(deps: SmsUsersDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
  }

  async list({ accountId }: Caller): Promise<SmsUserView[]> {
    return this.views(accountId, await repo.listSmsUsers(this.deps.database, accountId));
  }

  async get({ accountId }: Caller, id: number): Promise<SmsUserView> {
    const row = await repo.findSmsUser(this.deps.database, accountId, id);
    if (!row) throw new AppError('SMS_USER_NOT_FOUND');
    const [view] = await this.views(accountId, [row]);
    return view as SmsUserView;
  }

  async create({ accountId }: Caller, input: SmsUserCreateInput): Promise<IssuedSmsKey> {
    const { database } = this.deps;
    if (await repo.isNameTaken(database, input.name)) throw new AppError('SMS_USER_NAME_TAKEN');
    const smsKey = generateApiKey();
    const now = this.now();
    let id: number;
    try {
      id = await database.db.transaction().execute(async (trx) => {
        const scoped = { ...database, db: trx };
        // Serialises creations on one account: the limit of 5 is counted inside the transaction.
        await lockAccount(scoped, accountId, now);
        if ((await repo.countSmsUsers(scoped, accountId)) >= SMS_USER_MAX) {
          throw new AppError('SMS_USER_LIMIT', { max: SMS_USER_MAX });
        }
        const newId = await repo.insertSmsUser(scoped, accountId, input, now);
        await repo.insertKey(scoped, accountId, newId, smsKey, this.seal(smsKey), now);
        return newId;
      });
    } catch (error) {
      // Two creations racing for one name: the unique index decides.
      if (!(error instanceof AppError) && (await repo.isNameTaken(database, input.name))) {
        throw new AppError('SMS_USER_NAME_TAKEN');
      }
      throw error;
    }
    return { smsUser: await this.get({ accountId }, id), smsKey };
  }

  async resetKey(session: SessionCaller, input: SmsKeyResetInput): Promise<ReissuedSmsKey> {
    await this.deps.verification.requireRecentVerification(session);
    const { database } = this.deps;
    const current = await this.get(session, input.smsUserId);
    const smsKey = generateApiKey();
    const now = this.now();
    const oldKeyExpiresAt = now + input.expiresInMinutes * 60_000;
    await database.db.transaction().execute(async (trx) => {
      const scoped = { ...database, db: trx };
      await repo.expireKeys(scoped, session.accountId, current.id, oldKeyExpiresAt, now);
      await repo.insertKey(scoped, session.accountId, current.id, smsKey, this.seal(smsKey), now);
    });
    this.keyCache.delete(current.name);
    return { smsUser: await this.get(session, current.id), smsKey, oldKeyExpiresAt };
  }

  /** The SMS_USER whose live key this is, or null: what the SMS API authenticates with. */
  async authenticate(name: string, key: string): Promise<SmsUserRef | null> {
    if (!name || !key) return null;
    const row = await repo.findByCredentials(this.deps.database, name, hashApiKey(key));
    if (!row || (row.expires_at !== null && Number(row.expires_at) <= this.now())) return null;
    return { id: Number(row.id), accountId: Number(row.account_id), name: row.name, cType: row.c_type };
  }

  /**
   * The SMS_USER whose live key signed these parameters (reference §11): the signature is
   * md5(key & sorted k=v of every parameter but smsKey and signature & key), in any letter case.
   * Every live key is tried, so both keys work during a reset's overlap. Null when none matches.
   */
  async verifySignature(
    name: string,
    params: Record<string, string>,
    signature: string,
  ): Promise<SmsUserRef | null> {
    if (!name || !/^[0-9a-f]{32}$/i.test(signature)) return null;
    const given = Buffer.from(signature.toLowerCase(), 'hex');
    const now = this.now();
    for (const { key, user, expiresAt } of await this.liveKeys(name, now)) {
      if (expiresAt !== null && expiresAt <= now) continue;
      if (timingSafeEqual(Buffer.from(smsSignature(key, params), 'hex'), given)) return user;
    }
    return null;
  }

  /**
   * The opened live keys of an SMS_USER, kept KEY_CACHE_MS so a busy client does not cost a query
   * and an unsealing per call. A reset made in this process applies at once; one made in another
   * within KEY_CACHE_MS (each key's own expiry is checked at every use).
   */
  private async liveKeys(name: string, now: number) {
    const hit = this.keyCache.get(name);
    if (hit && hit.until > now) return hit.keys;
    const rows = await repo.sealedKeysByName(this.deps.database, name, now);
    const keys = rows.map((row) => ({
      key: this.deps.secretBox.open(row.key_sealed as string, SMS_KEY_CONTEXT),
      expiresAt: row.expires_at === null ? null : Number(row.expires_at),
      user: {
        id: Number(row.id),
        accountId: Number(row.account_id),
        name: row.name,
        cType: row.c_type,
      } as SmsUserRef,
    }));
    if (this.keyCache.size > 10_000) this.keyCache.clear();
    this.keyCache.set(name, { keys, until: now + KEY_CACHE_MS });
    return keys;
  }

  async exists(name: string): Promise<boolean> {
    return repo.isNameTaken(this.deps.database, name);
  }

  private seal(smsKey: string): string {
    return this.deps.secretBox.seal(smsKey, SMS_KEY_CONTEXT);
  }

  private async views(accountId: number, rows: repo.SmsUserRow[]): Promise<SmsUserView[]> {
    const keys = await repo.liveKeys(
      this.deps.database,
      accountId,
      rows.map((r) => Number(r.id)),
      this.now(),
    );
    return rows.map((r) => ({
      id: Number(r.id),
      name: r.name,
      cType: r.c_type,
      createdAt: Number(r.created_at),
      keys: keys
        .filter((k) => Number(k.sms_user_id) === Number(r.id))
        .map((k) => ({
          hint: k.key_hint,
          createdAt: Number(k.created_at),
          expiresAt: k.expires_at === null ? null : Number(k.expires_at),
        })),
    }));
  }
}

const SMS_KEY_CONTEXT = 'sms_key';
const KEY_CACHE_MS = 5_000;

/** The SMS API's request signature over the non-encoded parameter values (reference §11). */
export function smsSignature(key: string, params: Record<string, string>): string {
  const pairs = Object.keys(params)
    .filter((name) => name !== 'smsKey' && name !== 'signature')
    .sort()
    .map((name) => `${name}=${params[name]}`);
  return createHash('md5')
    .update(`${key}&${pairs.join('&')}&${key}`, 'utf8')
    .digest('hex');
}
