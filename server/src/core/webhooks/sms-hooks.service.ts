import {
  AppError,
  SMS_HOOK_EVENTS,
  SMS_HOOK_MAX_PER_ACCOUNT,
  type SmsHookEvent,
  type SmsHookView,
  smsHookInputSchema,
  type WebhookTestResult,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Caller } from '../context.ts';
import * as smsUsers from '../sms-users/sms-users.repo.ts';
import { smsPushFields } from './sms-hook-fan-out.ts';
import type { UrlGuard } from './url-guard.ts';
import type { WebhookClient } from './webhook-client.ts';
import { randomToken, signedBody } from './webhook-payload.ts';
import { probeUrl, pushSample } from './webhook-probe.ts';
import * as repo from './webhooks.repo.ts';
import { appKeyContext } from './webhooks.service.ts';

export interface SmsHooksDeps {
  database: Database;
  secretBox: SecretBox;
  guard: UrlGuard;
  client: WebhookClient;
  now?: () => number;
}

/**
 * SMSHooks (`/sms/smshooks`, screen `/s_sendSetting/smsHook`): receivers of an account's SMS
 * events, for one SMS_USER or all, kept in the webhooks' table under channel `sms` and pushed by
 * the same dispatcher. A URL is vetted by the SSRF guard and probed with a signed sample push
 * (HTTP 200 within 3 s) when saved, as for email webhooks.
 */
export class SmsHooksService {
  private readonly deps: SmsHooksDeps;
  private readonly now: () => number;

  constructor(deps: SmsHooksDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
  }

  async list({ accountId }: Caller): Promise<SmsHookView[]> {
    const rows = await repo.list(this.deps.database, accountId, 'sms');
    const names = await this.smsUserNames(accountId);
    return rows.map((row) => this.view(row, names));
  }

  async get({ accountId }: Caller, id: number): Promise<SmsHookView> {
    return this.view(await this.row(accountId, id), await this.smsUserNames(accountId));
  }

  async create({ accountId }: Caller, input: unknown): Promise<SmsHookView> {
    const parsed = smsHookInputSchema.parse(input);
    if ((await repo.count(this.deps.database, accountId, 'sms')) >= SMS_HOOK_MAX_PER_ACCOUNT) {
      throw new AppError('WEBHOOK_LIMIT_REACHED', { max: SMS_HOOK_MAX_PER_ACCOUNT });
    }
    const target = await this.target(accountId, parsed.smsUserId);
    if ((await repo.findByTarget(this.deps.database, accountId, target.id, parsed.url, 'sms')) !== null) {
      throw new AppError('WEBHOOK_URL_EXISTS');
    }
    const appKey = parsed.appKey || null;
    await this.probe(parsed.url, parsed.events[0] ?? 'deliver', target.name, appKey ?? '');
    const now = this.now();
    const id = await repo.insert(
      this.deps.database,
      accountId,
      { url: parsed.url, events: parsed.events.join(','), api_user_id: target.id, app_key_sealed: null },
      now,
      'sms',
    );
    if (appKey)
      await repo.update(this.deps.database, accountId, id, { app_key_sealed: this.seal(id, appKey) }, now);
    return this.get({ accountId }, id);
  }

  async update({ accountId }: Caller, id: number, input: unknown): Promise<SmsHookView> {
    const row = await this.row(accountId, id);
    const parsed = smsHookInputSchema.parse(input);
    const target = await this.target(accountId, parsed.smsUserId);
    const existing = await repo.findByTarget(this.deps.database, accountId, target.id, parsed.url, 'sms');
    if (existing !== null && existing !== id) throw new AppError('WEBHOOK_URL_EXISTS');
    const currentKey = this.openKey(row);
    const appKey = parsed.appKey === undefined ? currentKey : parsed.appKey || null;
    if (parsed.url !== row.url)
      await this.probe(parsed.url, parsed.events[0] ?? 'deliver', target.name, appKey ?? '');
    await repo.update(
      this.deps.database,
      accountId,
      id,
      {
        url: parsed.url,
        events: parsed.events.join(','),
        api_user_id: target.id,
        app_key_sealed: appKey ? this.seal(id, appKey) : null,
      },
      this.now(),
    );
    if (parsed.url !== row.url) this.deps.client.forget(String(id));
    return this.get({ accountId }, id);
  }

  async remove({ accountId }: Caller, id: number): Promise<void> {
    await this.row(accountId, id);
    await repo.remove(this.deps.database, accountId, id);
    this.deps.client.forget(String(id));
  }

  async generateAppKey({ accountId }: Caller, id: number): Promise<{ appKey: string }> {
    await this.row(accountId, id);
    const appKey = randomToken(32);
    await repo.update(
      this.deps.database,
      accountId,
      id,
      { app_key_sealed: this.seal(id, appKey) },
      this.now(),
    );
    return { appKey };
  }

  /** Pushes a signed sample of the hook's first event now and reports what the receiver said. */
  async test({ accountId }: Caller, id: number): Promise<WebhookTestResult> {
    const view = await this.get({ accountId }, id);
    const body = this.sample(view.events[0] ?? 'deliver', view.smsUserName ?? '', view.appKey ?? '');
    return pushSample(this.deps.guard, this.deps.client, view.url, body);
  }

  /** An unavailable hook back to normal. */
  async refresh({ accountId }: Caller, id: number): Promise<SmsHookView> {
    await this.row(accountId, id);
    await repo.restore(this.deps.database, accountId, id, this.now());
    return this.get({ accountId }, id);
  }

  private async row(accountId: number, id: number): Promise<repo.WebhookRow> {
    const row = await repo.find(this.deps.database, accountId, id, 'sms');
    if (!row) throw new AppError('WEBHOOK_NOT_FOUND');
    return row;
  }

  private async target(accountId: number, smsUserId: number | null): Promise<{ id: number; name: string }> {
    if (smsUserId === null) return { id: 0, name: '' };
    const name = (await this.smsUserNames(accountId)).get(smsUserId);
    if (!name) throw new AppError('SMS_USER_NOT_FOUND');
    return { id: smsUserId, name };
  }

  private async smsUserNames(accountId: number): Promise<Map<number, string>> {
    const rows = await smsUsers.listSmsUsers(this.deps.database, accountId);
    return new Map(rows.map((r) => [Number(r.id), r.name]));
  }

  private async probe(url: string, event: SmsHookEvent, smsUser: string, appKey: string): Promise<void> {
    await probeUrl(this.deps.guard, this.deps.client, url, this.sample(event, smsUser, appKey));
  }

  /** A sample push of `event`, marked `test=true`, signed like a real one. */
  private sample(event: SmsHookEvent, smsUser: string, appKey: string): string {
    const now = this.now();
    const fields = smsPushFields({
      id: 0,
      account_id: 0,
      kind: event,
      status_code: event === 'delivererror' ? 590 : event === 'workererror' ? 490 : 200,
      message: event.endsWith('error') ? 'test' : null,
      at: now,
      sms_id: `${now}_0_0_test`,
      phone: '+8613800138000',
      country: 'CN',
      template_id: null,
      label_id: null,
      tag: null,
      sms_user_id: null,
      sms_user: smsUser,
    });
    return signedBody({ ...fields, test: 'true' }, appKey, now);
  }

  private seal(id: number, appKey: string): string {
    return this.deps.secretBox.seal(appKey, appKeyContext(id));
  }

  private openKey(row: repo.WebhookRow): string | null {
    return row.app_key_sealed
      ? this.deps.secretBox.open(row.app_key_sealed, appKeyContext(Number(row.id)))
      : null;
  }

  private view(row: repo.WebhookRow, names: Map<number, string>): SmsHookView {
    const smsUserId = Number(row.api_user_id);
    return {
      id: Number(row.id),
      url: row.url,
      events: row.events
        .split(',')
        .filter((e): e is SmsHookEvent => (SMS_HOOK_EVENTS as readonly string[]).includes(e)),
      smsUserId: smsUserId === 0 ? null : smsUserId,
      smsUserName: smsUserId === 0 ? null : (names.get(smsUserId) ?? null),
      appKey: this.openKey(row),
      status: row.status,
      lastSuccessAt: row.last_success_at === null ? null : Number(row.last_success_at),
      lastFailureAt: row.last_failure_at === null ? null : Number(row.last_failure_at),
      createdAt: Number(row.created_at),
    };
  }
}
