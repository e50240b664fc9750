import {
  AppError,
  WEBHOOK_EVENT_KINDS,
  WEBHOOK_MAX_PER_ACCOUNT,
  type WebhookAttemptsPage,
  type WebhookEventKind,
  type WebhookInput,
  type WebhookTestResult,
  type WebhookView,
  webhookDeliveryQuerySchema,
  webhookInputSchema,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Caller } from '../context.ts';
import * as deliveries from './deliveries.repo.ts';
import type { UrlGuard } from './url-guard.ts';
import type { WebhookClient } from './webhook-client.ts';
import { pushFields, randomToken, signedBody } from './webhook-payload.ts';
import { probeUrl, pushSample } from './webhook-probe.ts';
import * as repo from './webhooks.repo.ts';

export interface WebhooksDeps {
  database: Database;
  secretBox: SecretBox;
  guard: UrlGuard;
  client: WebhookClient;
  now?: () => number;
}

/** The app key is bound to its webhook: a sealed key copied onto another row does not open. */
export const appKeyContext = (id: number) => `webhook-app-key:${id}`;

/**
 * Webhook configuration (`/config/webhooks`, SendCloud `webhook/*`): receivers per account, each
 * for one API_USER or all, with the events it wants and an optional app key. A URL is probed
 * when saved (a signed sample push must answer 200 within 3 s) after the SSRF guard vetted where
 * it points. Pushes themselves are the dispatcher's (webhook-dispatcher.ts).
 */
export class WebhooksService {
  private readonly deps: WebhooksDeps;
  private readonly now: () => number;

  constructor(deps: WebhooksDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
  }

  async list({ accountId }: Caller): Promise<WebhookView[]> {
    return (await repo.list(this.deps.database, accountId)).map((row) => this.view(row));
  }

  async get({ accountId }: Caller, id: number): Promise<WebhookView> {
    return this.view(await this.row({ accountId }, id));
  }

  /** `input` is unparsed: the shared schema checks it here, for every adapter alike. */
  async create({ accountId }: Caller, input: unknown): Promise<WebhookView> {
    const parsed = webhookInputSchema.parse(input);
    if ((await repo.count(this.deps.database, accountId)) >= WEBHOOK_MAX_PER_ACCOUNT) {
      throw new AppError('WEBHOOK_LIMIT_REACHED', { max: WEBHOOK_MAX_PER_ACCOUNT });
    }
    const target = await this.target(accountId, parsed.apiUserId);
    await this.checkUnique(accountId, target.id, parsed.url, null);
    const appKey = parsed.appKey || null;
    await this.probe(parsed.url, parsed.events, target.name, appKey ?? '');
    const now = this.now();
    let id: number;
    try {
      id = await repo.insert(
        this.deps.database,
        accountId,
        { url: parsed.url, events: parsed.events.join(','), api_user_id: target.id, app_key_sealed: null },
        now,
      );
    } catch (error) {
      // The unique index: a concurrent save of the same URL and target won the race.
      if ((await repo.findByTarget(this.deps.database, accountId, target.id, parsed.url)) !== null) {
        throw new AppError('WEBHOOK_URL_EXISTS');
      }
      throw error;
    }
    if (appKey)
      await repo.update(this.deps.database, accountId, id, { app_key_sealed: this.seal(id, appKey) }, now);
    return this.get({ accountId }, id);
  }

  /** Saves a whole form; an absent appKey keeps the key, '' removes it. The URL is probed again when it changed. */
  async update({ accountId }: Caller, id: number, input: unknown): Promise<WebhookView> {
    const row = await this.row({ accountId }, id);
    const parsed = webhookInputSchema.parse(input);
    return this.save({ accountId }, row, parsed);
  }

  async remove({ accountId }: Caller, id: number): Promise<void> {
    await this.row({ accountId }, id);
    await repo.remove(this.deps.database, accountId, id);
    this.deps.client.forget(String(id));
  }

  /**
   * A new random app key. With a webhook id it replaces that webhook's key at once; without, it
   * is only made for the add form, which saves it with the webhook.
   */
  async generateAppKey({ accountId }: Caller, id?: number): Promise<{ appKey: string }> {
    const appKey = randomToken(32);
    if (id !== undefined) {
      await this.row({ accountId }, id);
      await repo.update(
        this.deps.database,
        accountId,
        id,
        { app_key_sealed: this.seal(id, appKey) },
        this.now(),
      );
    }
    return { appKey };
  }

  /** Pushes a signed sample of the webhook's first event now and reports what the receiver said. */
  async test({ accountId }: Caller, id: number): Promise<WebhookTestResult> {
    const row = await this.row({ accountId }, id);
    const view = this.view(row);
    const body = this.sample(view.events[0] ?? 'deliver', view.apiUserName ?? 'all', view.appKey ?? '');
    return pushSample(this.deps.guard, this.deps.client, row.url, body);
  }

  /** An unavailable webhook back to normal (product-spec §4 "refresh restores normal"). */
  async refresh({ accountId }: Caller, id: number): Promise<WebhookView> {
    await this.row({ accountId }, id);
    await repo.restore(this.deps.database, accountId, id, this.now());
    return this.get({ accountId }, id);
  }

  async deliveries({ accountId }: Caller, id: number, query: unknown): Promise<WebhookAttemptsPage> {
    await this.row({ accountId }, id);
    const { page, pageSize } = webhookDeliveryQuerySchema.parse(query);
    const { rows, total } = await deliveries.listAttempts(
      this.deps.database,
      accountId,
      id,
      (page - 1) * pageSize,
      pageSize,
    );
    const list = rows.map((r) => ({
      id: Number(r.id),
      deliveryId: Number(r.delivery_id),
      event: r.event,
      recipient: r.recipient,
      requestBody: r.request_body,
      responseCode: r.response_code === null ? null : Number(r.response_code),
      error: r.error,
      durationMs: Number(r.duration_ms),
      attempt: Number(r.attempt),
      at: Number(r.at),
      status: r.status,
    }));
    return { list, total, page, pageSize };
  }

  /** Queues a push again now (the log's replay). */
  async replay({ accountId }: Caller, id: number, deliveryId: number): Promise<void> {
    await this.row({ accountId }, id);
    if (!(await deliveries.replay(this.deps.database, accountId, id, deliveryId, this.now()))) {
      throw new AppError('WEBHOOK_DELIVERY_NOT_FOUND');
    }
  }

  /** For the SendCloud API: the webhook of a URL and target ("all" or an API_USER name). */
  async findByUrl({ accountId }: Caller, url: string, categoryName: string): Promise<WebhookView> {
    const target = await this.targetByName({ accountId }, categoryName);
    const id = await repo.findByTarget(this.deps.database, accountId, target.id, url.trim());
    if (id === null) throw new AppError('WEBHOOK_NOT_FOUND');
    return this.get({ accountId }, id);
  }

  /** "all" or an API_USER name of the account, as SendCloud's categoryName. */
  async targetByName({ accountId }: Caller, categoryName: string): Promise<{ id: number; name: string }> {
    const name = categoryName.trim();
    if (!name) throw new AppError('WEBHOOK_CATEGORY_REQUIRED');
    if (name === 'all') return { id: 0, name: 'all' };
    const apiUser = await repo.apiUserOf(this.deps.database, accountId, { name });
    if (!apiUser) throw new AppError('WEBHOOK_CATEGORY_INVALID', { name });
    return apiUser;
  }

  /** Applies a parsed form to an existing webhook (console edit and SendCloud's update). */
  async save({ accountId }: Caller, row: repo.WebhookRow, input: WebhookInput): Promise<WebhookView> {
    const id = Number(row.id);
    const target = await this.target(accountId, input.apiUserId);
    await this.checkUnique(accountId, target.id, input.url, id);
    const currentKey = this.openKey(row);
    const appKey = input.appKey === undefined ? currentKey : input.appKey || null;
    if (input.url !== row.url) await this.probe(input.url, input.events, target.name, appKey ?? '');
    await repo.update(
      this.deps.database,
      accountId,
      id,
      {
        url: input.url,
        events: input.events.join(','),
        api_user_id: target.id,
        app_key_sealed: appKey ? this.seal(id, appKey) : null,
      },
      this.now(),
    );
    if (input.url !== row.url) this.deps.client.forget(String(id));
    return this.get({ accountId }, id);
  }

  async row({ accountId }: Caller, id: number): Promise<repo.WebhookRow> {
    const row = await repo.find(this.deps.database, accountId, id);
    if (!row) throw new AppError('WEBHOOK_NOT_FOUND');
    return row;
  }

  private async target(accountId: number, apiUserId: number | null): Promise<{ id: number; name: string }> {
    if (apiUserId === null) return { id: 0, name: 'all' };
    const apiUser = await repo.apiUserOf(this.deps.database, accountId, { id: apiUserId });
    if (!apiUser) throw new AppError('WEBHOOK_CATEGORY_INVALID', { name: String(apiUserId) });
    return apiUser;
  }

  private async checkUnique(
    accountId: number,
    target: number,
    url: string,
    self: number | null,
  ): Promise<void> {
    const existing = await repo.findByTarget(this.deps.database, accountId, target, url);
    if (existing !== null && existing !== self) throw new AppError('WEBHOOK_URL_EXISTS');
  }

  /** The save-time check: vetted address, then a signed sample push answered with 200 in 3 s. */
  private async probe(
    url: string,
    events: WebhookEventKind[],
    apiUser: string,
    appKey: string,
  ): Promise<void> {
    await probeUrl(
      this.deps.guard,
      this.deps.client,
      url,
      this.sample(events[0] ?? 'deliver', apiUser, appKey),
    );
  }

  /** A sample push of `kind`, marked `test=true`, signed like a real one. */
  private sample(kind: WebhookEventKind, apiUser: string, appKey: string): string {
    const now = this.now();
    const messageId = `${now}_0_0_0.sc-herald-test-inbound`;
    const fields = pushFields(
      kind,
      [
        {
          id: 0,
          accountId: 0,
          kind: kind === 'route' ? 'request' : kind,
          at: now,
          messageId: 0,
          recipientId: null,
          emailId: `${messageId}0$test@example.com`,
          recipient: 'test@example.com',
          recipientDomain: 'example.com',
          apiUserId: null,
          labelId: null,
          subStatus: null,
          reason: null,
          latencyMs: null,
          data: {},
        },
      ],
      { messageId, apiUser, labelName: null, userHeaders: null },
    );
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

  private view(row: repo.WebhookRow): WebhookView {
    const events = row.events
      .split(',')
      .filter((e): e is WebhookEventKind => (WEBHOOK_EVENT_KINDS as readonly string[]).includes(e));
    const apiUserId = Number(row.api_user_id);
    return {
      id: Number(row.id),
      url: row.url,
      events,
      apiUserId: apiUserId === 0 ? null : apiUserId,
      apiUserName: apiUserId === 0 ? null : row.api_user_name,
      appKey: this.openKey(row),
      status: row.status,
      lastSuccessAt: row.last_success_at === null ? null : Number(row.last_success_at),
      lastFailureAt: row.last_failure_at === null ? null : Number(row.last_failure_at),
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    };
  }
}
