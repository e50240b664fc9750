import type { ApiUserView, BindableDomainView, IssuedKey, ReissuedKey, SenderKind } from '@herald/shared';
import {
  API_USER_MAX,
  type ApiKeyResetInput,
  type ApiUserCreateInput,
  type ApiUserEmailType,
  type ApiUserUpdateInput,
  AppError,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller, SessionCaller } from '../context.ts';
import type { SensitiveVerificationService } from '../sensitive-verification/sensitive-verification.service.ts';
import * as keys from './api-keys.repo.ts';
import { type AccountSummary, accountSummary } from './api-user-account.ts';
import type { ApiUserAuth } from './api-user-auth.ts';
import * as repo from './api-users.repo.ts';

export interface ApiUserFilter {
  emailType?: ApiUserEmailType | undefined;
  cType?: 'normal' | 'test' | undefined;
  domainName?: string | undefined;
}

export interface ApiUsersDeps {
  database: Database;
  auth: ApiUserAuth;
  verification: SensitiveVerificationService;
  now?: () => number;
}

/**
 * API_USERs and their keys (`/config/categories`, `/config/apikeys`, SendCloud `apiuser/*`).
 * Rules (product-spec §5, issue 5): names unique platform-wide, at most ten per account, bound to
 * one of the account's usable or verified domains, and free accounts keep unsubscribe tracking on.
 * A key is shown once, when it is created or reset; a reset leaves the old key working for the
 * chosen 15–60 minutes. A reset hands out a working credential, so it asks for the session's
 * sensitive-operation verification when the user keeps that switch on (the default); creating
 * does not, since the new API_USER has no mail, lists or history a stolen session could reach.
 * Any change that affects authentication drops the API_USER from apiUserAuth's cache.
 */
export class ApiUsersService {
  private readonly deps: ApiUsersDeps;
  private readonly now: () => number;

  constructor(deps: ApiUsersDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
  }

  async list({ accountId }: Caller, filter: ApiUserFilter = {}): Promise<ApiUserView[]> {
    const rows = (await repo.listApiUsers(this.deps.database, accountId)).filter(
      (row) =>
        (!filter.emailType || row.email_type === filter.emailType) &&
        (!filter.cType || row.c_type === filter.cType) &&
        (!filter.domainName || row.domain_name?.toLowerCase() === filter.domainName.toLowerCase()),
    );
    return this.views(accountId, rows);
  }

  async get({ accountId }: Caller, id: number): Promise<ApiUserView> {
    const row = await repo.findApiUser(this.deps.database, accountId, id);
    if (!row) throw new AppError('API_USER_NOT_FOUND');
    const [view] = await this.views(accountId, [row]);
    return view as ApiUserView;
  }

  /** `check`: whether the name is free across the platform. */
  async isNameAvailable(name: string): Promise<boolean> {
    return !(await repo.isNameTaken(this.deps.database, name));
  }

  /** The domains the form offers: the account's usable and verified ones. */
  async bindableDomains({ accountId }: Caller): Promise<BindableDomainView[]> {
    const rows = await repo.listBindableDomains(this.deps.database, accountId);
    return rows.map((r) => ({ id: Number(r.id), name: r.name, status: r.status }));
  }

  async create({ accountId }: Caller, input: ApiUserCreateInput): Promise<IssuedKey> {
    const { database } = this.deps;
    await this.checkValues(accountId, input);
    if (await repo.isNameTaken(database, input.name)) throw new AppError('API_USER_NAME_TAKEN');
    const apiKey = keys.generateApiKey();
    const now = this.now();
    let id: number;
    try {
      id = await database.db.transaction().execute(async (trx) => {
        const scoped = { ...database, db: trx };
        await repo.lockAccount(scoped, accountId, now);
        if ((await repo.countApiUsers(scoped, accountId)) >= API_USER_MAX) {
          throw new AppError('API_USER_LIMIT', { max: API_USER_MAX });
        }
        const newId = await repo.insertApiUser(
          scoped,
          accountId,
          { ...values(input, {}), name: input.name, emailType: input.emailType },
          now,
        );
        await keys.insertKey(scoped, accountId, newId, apiKey, now);
        const senders = await repo.findSenders(scoped, accountId);
        if (senders[input.emailType] === null) {
          await repo.saveSenders(scoped, accountId, { ...senders, [input.emailType]: newId }, now);
        }
        return newId;
      });
    } catch (error) {
      // Two creations racing for one name: the unique index decides.
      if (!(error instanceof AppError) && (await repo.isNameTaken(database, input.name))) {
        throw new AppError('API_USER_NAME_TAKEN');
      }
      throw error;
    }
    return { apiUser: await this.get({ accountId }, id), apiKey };
  }

  async update({ accountId }: Caller, id: number, input: ApiUserUpdateInput): Promise<ApiUserView> {
    const current = await this.get({ accountId }, id);
    await this.checkValues(accountId, input);
    await repo.updateApiUser(this.deps.database, accountId, id, values(input, current), this.now());
    this.deps.auth.forget(current.name);
    return this.get({ accountId }, id);
  }

  async remove({ accountId }: Caller, id: number): Promise<void> {
    const current = await this.get({ accountId }, id);
    await this.deps.database.db.transaction().execute(async (trx) => {
      await repo.deleteApiUser({ ...this.deps.database, db: trx }, accountId, id);
    });
    this.deps.auth.forget(current.name);
  }

  /** A new key; the old ones keep working for the chosen minutes (an earlier expiry stays). */
  async resetKey(session: SessionCaller, input: ApiKeyResetInput): Promise<ReissuedKey> {
    await this.deps.verification.requireRecentVerification(session);
    const { database } = this.deps;
    const current = await this.get(session, input.apiUserId);
    const apiKey = keys.generateApiKey();
    const now = this.now();
    const oldKeyExpiresAt = now + input.expiresInMinutes * 60_000;
    await database.db.transaction().execute(async (trx) => {
      const scoped = { ...database, db: trx };
      await keys.expireKeys(scoped, session.accountId, current.id, oldKeyExpiresAt, now);
      await keys.insertKey(scoped, session.accountId, current.id, apiKey, now);
    });
    this.deps.auth.forget(current.name);
    return { apiUser: await this.get(session, current.id), apiKey, oldKeyExpiresAt };
  }

  /** SendCloud's `domainName`: the account's domain of that name, or API_USER_DOMAIN_NOT_FOUND. */
  async domainIdByName({ accountId }: Caller, name: string): Promise<number> {
    const domain = name ? await repo.findDomain(this.deps.database, accountId, { name }) : undefined;
    if (!domain) throw new AppError('API_USER_DOMAIN_NOT_FOUND');
    return Number(domain.id);
  }

  /** The account behind an API_USER, for SendCloud's `userinfo/get`. */
  async accountSummary({ accountId }: Caller): Promise<AccountSummary> {
    return accountSummary(this.deps.database, accountId, this.now());
  }

  /** The account's default trigger and batch API_USERs (test send, dashboard guide). */
  async senders({ accountId }: Caller): Promise<Record<SenderKind, ApiUserView | null>> {
    const ids = await repo.findSenders(this.deps.database, accountId);
    const load = async (id: number | null) =>
      id === null ? null : this.get({ accountId }, id).catch(() => null);
    return { trigger: await load(ids.trigger), batch: await load(ids.batch) };
  }

  /** Sets (or with null clears) a default sender; the trigger sender cannot be the batch sender. */
  async setSender(
    { accountId }: Caller,
    kind: SenderKind,
    apiUserId: number | null,
  ): Promise<ApiUserView | null> {
    const ids = await repo.findSenders(this.deps.database, accountId);
    if (apiUserId !== null) {
      const other = kind === 'trigger' ? ids.batch : ids.trigger;
      if (other === apiUserId) throw new AppError('API_USER_SENDER_SAME');
      const chosen = await this.get({ accountId }, apiUserId);
      if (chosen.emailType !== kind) throw new AppError('API_USER_SENDER_TYPE');
    }
    await repo.saveSenders(this.deps.database, accountId, { ...ids, [kind]: apiUserId }, this.now());
    return apiUserId === null ? null : this.get({ accountId }, apiUserId);
  }

  private async checkValues(
    accountId: number,
    input: { domainId: number; labelId?: number | null | undefined; unsubscribeTracking: boolean },
  ): Promise<void> {
    const { database } = this.deps;
    const domain = await repo.findDomain(database, accountId, { id: input.domainId });
    if (!domain) throw new AppError('API_USER_DOMAIN_NOT_FOUND');
    if (domain.status === 'unverified') throw new AppError('API_USER_DOMAIN_UNVERIFIED');
    if (input.labelId != null && !(await repo.labelExists(database, accountId, input.labelId))) {
      throw new AppError('API_USER_LABEL_NOT_FOUND');
    }
    if (!input.unsubscribeTracking && (await repo.findPlan(database, accountId)) === 'free') {
      throw new AppError('API_USER_FREE_UNSUBSCRIBE');
    }
  }

  private async views(accountId: number, rows: repo.ApiUserRow[]): Promise<ApiUserView[]> {
    const live = await keys.liveKeys(
      this.deps.database,
      accountId,
      rows.map((r) => Number(r.id)),
      this.now(),
    );
    return rows.map((row) => ({
      id: Number(row.id),
      name: row.name,
      emailType: row.email_type,
      cType: row.c_type,
      domainId: row.domain_id === null ? null : Number(row.domain_id),
      domainName: row.domain_name ?? null,
      domainStatus: row.domain_status ?? null,
      labelId: row.label_id === null ? null : Number(row.label_id),
      labelName: row.label_name ?? null,
      openTracking: row.open_tracking === 1,
      clickTracking: row.click_tracking === 1,
      unsubscribeTracking: row.unsubscribe_tracking === 1,
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
      keys: live
        .filter((k) => Number(k.api_user_id) === Number(row.id))
        .map((k) => ({
          hint: k.key_hint,
          createdAt: Number(k.created_at),
          expiresAt: k.expires_at === null ? null : Number(k.expires_at),
        })),
    }));
  }
}

/** An omitted label keeps the current one; null clears it. */
function values(input: ApiUserUpdateInput, current: { labelId?: number | null }): repo.ApiUserValues {
  return {
    domainId: input.domainId,
    labelId: input.labelId === undefined ? (current.labelId ?? null) : input.labelId,
    openTracking: input.openTracking,
    clickTracking: input.clickTracking,
    unsubscribeTracking: input.unsubscribeTracking,
  };
}
