import type { Database } from '../../db/database.ts';
import type { MessageSource } from '../../db/message-schema.ts';
import { apiUserRefOf } from '../api-users/api-user-auth.ts';
import type { KeyCaller } from '../context.ts';
import { type QuotaRaiseWindow, quotaDay } from './quota.ts';

const CACHE_MS = 5_000;
const CACHE_MAX = 10_000;

/** A small per-process cache: the accept path reads the same account's set-up many times a second. */
class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    const value = await load();
    if (this.entries.size >= CACHE_MAX) this.entries.clear();
    this.entries.set(key, { value, until: now + CACHE_MS });
    return value;
  }

  forget(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}

export interface AccountSendSettings {
  plan: 'free' | 'paid';
  dailyQuota: number | null;
  /** The newest temporary increase not over yet (quota.ts decides whether it counts today). */
  raise: QuotaRaiseWindow | null;
}

export interface SendableTemplate {
  id: number;
  subject: string;
  html: string;
  plain: string | null;
  status: string;
}

/**
 * The reads of the accept path. An account's plan, usable sending domains and labels are kept
 * for five seconds per process: a domain that stops verifying, or a plan change, takes effect
 * within that time. Templates are read each time (their review status matters at once).
 */
export class SendRepo {
  private readonly database: Database;
  private readonly settings = new TtlCache<AccountSendSettings | undefined>();
  private readonly domains = new TtlCache<Set<string>>();
  private readonly labels = new TtlCache<boolean>();

  constructor(database: Database) {
    this.database = database;
  }

  accountSettings(accountId: number): Promise<AccountSendSettings | undefined> {
    return this.settings.get(String(accountId), async () => {
      const row = await this.database.db
        .selectFrom('accounts')
        .select(['plan', 'daily_quota'])
        .where('id', '=', accountId)
        .executeTakeFirst();
      if (!row) return undefined;
      const raise = await this.database.db
        .selectFrom('quota_raises')
        .select(['extra', 'from_day', 'to_day'])
        .where('account_id', '=', accountId)
        .where('to_day', '>=', quotaDay(Date.now()))
        .orderBy('to_day', 'desc')
        .executeTakeFirst();
      return {
        plan: row.plan,
        dailyQuota: row.daily_quota === null ? null : Number(row.daily_quota),
        raise: raise ? { extra: Number(raise.extra), fromDay: raise.from_day, toDay: raise.to_day } : null,
      };
    });
  }

  /** Drops the cached plan, quota and raise of an account an operator just changed. */
  forgetAccount(accountId: number): void {
    this.settings.forget(String(accountId));
  }

  /** Names (lower case) of the account's sending domains whose status is usable or verified. */
  usableDomains(accountId: number): Promise<Set<string>> {
    return this.domains.get(String(accountId), async () => {
      const rows = await this.database.db
        .selectFrom('sending_domains')
        .select('name')
        .where('account_id', '=', accountId)
        .where('status', 'in', ['usable', 'verified'])
        .execute();
      return new Set(rows.map((row) => row.name.toLowerCase()));
    });
  }

  labelExists(accountId: number, labelId: number): Promise<boolean> {
    return this.labels.get(`${accountId}\n${labelId}`, async () => {
      const row = await this.database.db
        .selectFrom('labels')
        .select('id')
        .where('account_id', '=', accountId)
        .where('channel', '=', 'email')
        .where('id', '=', labelId)
        .executeTakeFirst();
      return row !== undefined;
    });
  }

  /** SendCloud's labelName: the account's email label of that name, created when missing. */
  async labelIdByName(accountId: number, name: string): Promise<number> {
    const db = this.database.db;
    const now = Date.now();
    await db
      .insertInto('labels')
      .values({ account_id: accountId, channel: 'email', name, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['account_id', 'channel', 'name']).doNothing())
      .execute();
    const row = await db
      .selectFrom('labels')
      .select('id')
      .where('account_id', '=', accountId)
      .where('channel', '=', 'email')
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async templateByInvokeName(accountId: number, invokeName: string): Promise<SendableTemplate | undefined> {
    const row = await this.database.db
      .selectFrom('email_templates')
      .select(['id', 'subject', 'html', 'plain', 'status'])
      .where('account_id', '=', accountId)
      .where('invoke_name', '=', invokeName)
      .executeTakeFirst();
    return row ? { ...row, id: Number(row.id) } : undefined;
  }

  /** The trusted relay's API_USER (SMTP without AUTH from trusted networks), by name. */
  async callerByName(name: string): Promise<KeyCaller | undefined> {
    const row = await this.database.db
      .selectFrom('api_users')
      .select(['id', 'account_id', 'name', 'email_type', 'c_type', 'domain_id'])
      .where('name', '=', name)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      accountId: Number(row.account_id),
      apiUser: apiUserRefOf(row),
    };
  }

  /** An API_USER of the account with its bound domain's name (for the console's test send). */
  async apiUserForTest(accountId: number, apiUserId: number) {
    return this.database.db
      .selectFrom('api_users')
      .leftJoin('sending_domains', 'sending_domains.id', 'api_users.domain_id')
      .select([
        'api_users.id',
        'api_users.name',
        'api_users.email_type',
        'api_users.c_type',
        'api_users.domain_id',
        'sending_domains.name as domain_name',
        'sending_domains.status as domain_status',
      ])
      .where('api_users.account_id', '=', accountId)
      .where('api_users.id', '=', apiUserId)
      .executeTakeFirst();
  }

  async apiUsersForTest(accountId: number) {
    return this.database.db
      .selectFrom('api_users')
      .leftJoin('sending_domains', 'sending_domains.id', 'api_users.domain_id')
      .select([
        'api_users.id',
        'api_users.name',
        'api_users.email_type',
        'api_users.c_type',
        'sending_domains.name as domain_name',
        'sending_domains.status as domain_status',
      ])
      .where('api_users.account_id', '=', accountId)
      .orderBy('api_users.id')
      .execute();
  }

  /** The newest recipient records of the account's messages from one source. */
  async recentRecipients(accountId: number, source: MessageSource, limit: number) {
    return this.database.db
      .selectFrom('message_recipients')
      .innerJoin('messages', 'messages.id', 'message_recipients.message_id')
      .leftJoin('api_users', 'api_users.id', 'messages.api_user_id')
      .select([
        'message_recipients.email_id',
        'message_recipients.recipient',
        'message_recipients.status',
        'message_recipients.created_at',
        'messages.message_id',
        'messages.subject',
        'messages.from_address',
        'messages.source',
        'api_users.name as api_user',
      ])
      .where('message_recipients.account_id', '=', accountId)
      .where('messages.source', '=', source)
      .orderBy('message_recipients.id', 'desc')
      .limit(limit)
      .execute();
  }
}
