import { randomInt } from 'node:crypto';
import {
  AppError,
  type IpRange,
  type IssuedGatewaySecret,
  ipInRanges,
  parseIpEntry,
  SMS_GATEWAY_USER_DEFAULT_MAX,
  type SmsGatewayProtocol,
  type SmsGatewaySettingsInput,
  type SmsGatewayUserCreateInput,
  type SmsGatewayUsersList,
  type SmsGatewayUserView,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { lockAccount } from '../api-users/api-users.repo.ts';
import type { Caller, SessionCaller } from '../context.ts';
import type { SensitiveVerificationService } from '../sensitive-verification/sensitive-verification.service.ts';
import * as repo from './sms-gateway-users.repo.ts';

/** A gateway user as a connection sees it once it has named its login. */
export interface GatewayLogin {
  id: number;
  accountId: number;
  protocol: SmsGatewayProtocol;
  name: string;
  /** The opened shared secret: CMPP hashes it into the authenticator, SMPP compares it. */
  secret: string;
  allowedIps: IpRange[];
  window: number;
  perSecond: number;
}

/**
 * Gateway users (product-spec §3, §5): the CMPP_USERs and SMPP system ids a customer's own
 * system logs in to Herald's gateway with. Names are unique per protocol on the whole platform;
 * an account holds at most its cap (5 unless the operator set another), counted under the
 * account's row lock. The secret is random, sealed at rest because CMPP's authenticator needs it
 * in clear, shown once at creation and at a reset (which needs a recent identity verification;
 * connections already logged in keep going until they log in again). SMPP passwords are 8
 * characters, the most bind_transceiver carries; CMPP secrets 16.
 */
export class SmsGatewayUsersService {
  private readonly database: Database;
  private readonly secretBox: SecretBox;
  private readonly verification: Pick<SensitiveVerificationService, 'requireRecentVerification'>;
  private readonly now: () => number;
  private readonly loginCache = new Map<string, { login: GatewayLogin | null; until: number }>();

  constructor(deps: {
    database: Database;
    secretBox: SecretBox;
    verification: Pick<SensitiveVerificationService, 'requireRecentVerification'>;
    now?: () => number;
  }) {
    this.database = deps.database;
    this.secretBox = deps.secretBox;
    this.verification = deps.verification;
    this.now = deps.now ?? Date.now;
  }

  async list({ accountId }: Caller): Promise<SmsGatewayUsersList> {
    const rows = await repo.listUsers(this.database, accountId);
    return { list: rows.map(toView), max: await this.cap(accountId) };
  }

  async get({ accountId }: Caller, id: number): Promise<SmsGatewayUserView> {
    const row = await repo.findUser(this.database, accountId, id);
    if (!row) throw new AppError('SMS_GATEWAY_USER_NOT_FOUND');
    return toView(row);
  }

  async create({ accountId }: Caller, input: SmsGatewayUserCreateInput): Promise<IssuedGatewaySecret> {
    const { database } = this;
    if (await repo.isNameTaken(database, input.protocol, input.name))
      throw new AppError('SMS_GATEWAY_USER_NAME_TAKEN');
    const secret = newSecret(input.protocol);
    const now = this.now();
    let id: number;
    try {
      id = await database.db.transaction().execute(async (trx) => {
        const scoped = { ...database, db: trx };
        await lockAccount(scoped, accountId, now);
        const max = await this.cap(accountId, scoped);
        if ((await repo.countUsers(scoped, accountId)) >= max)
          throw new AppError('SMS_GATEWAY_USER_LIMIT', { max });
        return repo.insertUser(
          scoped,
          accountId,
          { ...input, secretSealed: this.seal(secret), secretHint: secret.slice(-4) },
          now,
        );
      });
    } catch (error) {
      // Two creations racing for one name: the unique index decides.
      if (!(error instanceof AppError) && (await repo.isNameTaken(database, input.protocol, input.name)))
        throw new AppError('SMS_GATEWAY_USER_NAME_TAKEN');
      throw error;
    }
    return { user: await this.get({ accountId }, id), secret };
  }

  async update(caller: Caller, id: number, input: SmsGatewaySettingsInput): Promise<SmsGatewayUserView> {
    if (!(await repo.updateSettings(this.database, caller.accountId, id, input, this.now())))
      throw new AppError('SMS_GATEWAY_USER_NOT_FOUND');
    const view = await this.get(caller, id);
    this.loginCache.delete(`${view.protocol}:${view.name}`);
    return view;
  }

  async resetSecret(session: SessionCaller, id: number): Promise<IssuedGatewaySecret> {
    const current = await this.get(session, id);
    await this.verification.requireRecentVerification(session);
    const secret = newSecret(current.protocol);
    await repo.updateSecret(
      this.database,
      session.accountId,
      id,
      this.seal(secret),
      secret.slice(-4),
      this.now(),
    );
    this.loginCache.delete(`${current.protocol}:${current.name}`);
    return { user: await this.get(session, id), secret };
  }

  async remove(caller: Caller, id: number): Promise<void> {
    const current = await this.get(caller, id);
    await repo.deleteUser(this.database, caller.accountId, id);
    this.loginCache.delete(`${current.protocol}:${current.name}`);
  }

  /** The operator's cap for one account (0 turns the gateway off for it). */
  async setCap(_operator: Caller, accountId: number, max: number): Promise<{ max: number }> {
    if (!(await repo.accountExists(this.database, accountId)))
      throw new AppError('COMMON_NOT_FOUND', { entity: 'Account' });
    await repo.saveCap(this.database, accountId, max, this.now());
    return { max };
  }

  /**
   * The user a connection names, with its secret opened, or null. Read through a cache of
   * LOGIN_CACHE_MS so a customer opening many connections costs one query; a reset, an edit or a
   * deletion in this process applies at once, one in another process within LOGIN_CACHE_MS.
   */
  async login(protocol: SmsGatewayProtocol, name: string): Promise<GatewayLogin | null> {
    const key = `${protocol}:${name}`;
    const now = this.now();
    const hit = this.loginCache.get(key);
    if (hit && hit.until > now) return hit.login;
    const row = await repo.findByLogin(this.database, protocol, name);
    const login: GatewayLogin | null = row
      ? {
          id: Number(row.id),
          accountId: Number(row.account_id),
          protocol: row.protocol,
          name: row.name,
          secret: this.secretBox.open(row.secret_sealed, SECRET_CONTEXT),
          allowedIps: splitIps(row.allowed_ips).map((entry) => parseIpEntry(entry) as IpRange),
          window: Number(row.window_size),
          perSecond: Number(row.per_second),
        }
      : null;
    if (this.loginCache.size > 10_000) this.loginCache.clear();
    this.loginCache.set(key, { login, until: now + LOGIN_CACHE_MS });
    return login;
  }

  private async cap(accountId: number, database: Database = this.database): Promise<number> {
    return (await repo.findCap(database, accountId)) ?? SMS_GATEWAY_USER_DEFAULT_MAX;
  }

  private seal(secret: string): string {
    return this.secretBox.seal(secret, SECRET_CONTEXT);
  }
}

/** Whether a login may connect from this address: any when it lists none. */
export function addressAllowed(login: Pick<GatewayLogin, 'allowedIps'>, address: string): boolean {
  return login.allowedIps.length === 0 || ipInRanges(address, login.allowedIps);
}

const SECRET_CONTEXT = 'sms_gateway_secret';
const LOGIN_CACHE_MS = 5_000;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

function newSecret(protocol: SmsGatewayProtocol): string {
  const length = protocol === 'smpp' ? 8 : 16;
  let secret = '';
  for (let i = 0; i < length; i += 1) secret += ALPHABET[randomInt(ALPHABET.length)];
  return secret;
}

function splitIps(text: string): string[] {
  return text ? text.split(',').filter(Boolean) : [];
}

function toView(row: repo.GatewayUserRow): SmsGatewayUserView {
  return {
    id: Number(row.id),
    protocol: row.protocol,
    name: row.name,
    secretHint: row.secret_hint,
    allowedIps: splitIps(row.allowed_ips),
    window: Number(row.window_size),
    perSecond: Number(row.per_second),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
