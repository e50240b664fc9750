import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Logger } from '../../logger.ts';
import type { MailEvent, MailEventsService } from '../mail-events/mail-events.service.ts';
import * as deliveries from './deliveries.repo.ts';
import { fanOutSmsEvents } from './sms-hook-fan-out.ts';
import type { WebhookClient } from './webhook-client.ts';
import { type MessageFacts, pushFields, signedBody, userHeadersOf } from './webhook-payload.ts';
import * as webhooks from './webhooks.repo.ts';
import { appKeyContext } from './webhooks.service.ts';

export interface WebhookDispatchSettings {
  /** First retry delay; later ones double: 1, 2, 4, 8, 16 minutes by default (reference §9). */
  retryBaseMs: number;
  retries: number;
  /** Pushes in flight per webhook in this process. */
  perWebhookConcurrency: number;
  /** Outbox rows per claim, and claims in flight at once. */
  batch: number;
  rounds: number;
  leaseMs: number;
  pollMs: number;
  /** Consecutive failure time after which a webhook becomes unavailable (7 days). */
  unavailableAfterMs: number;
}

export const DEFAULT_DISPATCH: WebhookDispatchSettings = {
  retryBaseMs: 60_000,
  retries: 5,
  perWebhookConcurrency: 32,
  batch: 200,
  rounds: 4,
  leaseMs: 60_000,
  pollMs: 200,
  unavailableAfterMs: 7 * 24 * 60 * 60_000,
};

export const WEBHOOK_CURSOR = 'webhooks';
const FAN_OUT_BATCH = 1000;

export interface DispatcherDeps {
  database: Database;
  mailEvents: MailEventsService;
  secretBox: SecretBox;
  client: WebhookClient;
  logger: Logger;
  settings: WebhookDispatchSettings;
  now?: () => number;
}

type HookRow = webhooks.DispatchHookRow;

/**
 * Webhook dispatch, in two halves run by the worker's webhooks loop:
 *
 * - fan-out: the `webhooks` consumer of the mail event log turns each event that a normal webhook
 *   wants (same account, event kind chosen, its API_USER or all) into an outbox row, in the
 *   transaction that advances the cursor, so no event is pushed twice or lost. The log has one
 *   `request` event per recipient; SendCloud pushes one request per message (recipientArray,
 *   emailIds, recipientSize), so consecutive request events of a message become one push (a
 *   message whose events straddle two batches makes two pushes).
 * - push: claims due outbox rows with a lease, POSTs each (several at once, at most
 *   `perWebhookConcurrency` per webhook, over that webhook's keep-alive agent), and writes the
 *   round's attempts, outcomes and retry times in one transaction. Non-200 answers and timeouts
 *   retry after 1, 2, 4, 8 and 16 minutes, then the push is failed. One push is one event, as
 *   SendCloud's receivers expect.
 */
export class WebhookDispatcher {
  private readonly deps: DispatcherDeps;
  private readonly now: () => number;
  private readonly owner = `webhooks-${randomUUID()}`;
  private readonly active = new Map<number, { running: number; waiting: (() => void)[] }>();
  private running = false;
  private loops: Promise<void>[] = [];
  private wakeUp: (() => void) | null = null;

  constructor(deps: DispatcherDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
  }

  /** Applies the next batch of mail events; returns how many were read (0: caught up). */
  async fanOut(limit = FAN_OUT_BATCH): Promise<number> {
    let queued = 0;
    const read = await this.deps.mailEvents.consume(WEBHOOK_CURSOR, limit, async (events, trx) => {
      const accounts = [...new Set(events.map((e) => e.accountId))];
      const hooks = await webhooks.normalHooksOf(trx, accounts);
      if (hooks.length === 0) return;
      const wanted = (hook: HookRow, e: MailEvent) =>
        Number(hook.account_id) === e.accountId &&
        (Number(hook.api_user_id) === 0 || Number(hook.api_user_id) === e.apiUserId) &&
        hook.events.split(',').includes(e.kind);
      const pushes: { hook: HookRow; events: MailEvent[] }[] = [];
      for (const group of groupRequests(events)) {
        const first = group[0] as MailEvent;
        for (const hook of hooks) if (wanted(hook, first)) pushes.push({ hook, events: group });
      }
      if (pushes.length === 0) return;
      const facts = await messageFacts(trx, [
        ...new Set(pushes.map((p) => (p.events[0] as MailEvent).messageId)),
      ]);
      const now = this.now();
      await deliveries.enqueue(
        trx,
        pushes.map(({ hook, events: group }) => {
          const first = group[0] as MailEvent;
          const message = facts.get(first.messageId) ?? {
            messageId: '',
            apiUser: '',
            labelName: null,
            userHeaders: null,
          };
          return {
            account_id: first.accountId,
            webhook_id: Number(hook.id),
            event: first.kind,
            event_id: first.id,
            recipient: first.recipient,
            payload: JSON.stringify(pushFields(first.kind, group, message)),
            event_at: first.at,
          };
        }),
        now,
      );
      queued = pushes.length;
    });
    // After the commit, so the claim sees the new rows.
    if (queued > 0) this.wake();
    return read;
  }

  /** Claims one batch of due pushes and sends it; returns how many were claimed. */
  async pushOnce(): Promise<number> {
    const claimed = await deliveries.claim(
      this.deps.database,
      this.owner,
      this.deps.settings.batch,
      this.now(),
      this.deps.settings.leaseMs,
    );
    if (claimed.length > 0) await this.send(claimed);
    return claimed.length;
  }

  /** Runs fan-out and push until stop() (the worker role). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loops = [this.fanOutLoop(), this.pushLoop()];
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await Promise.all(this.loops);
    this.loops = [];
  }

  wake(): void {
    const wake = this.wakeUp;
    this.wakeUp = null;
    wake?.();
  }

  /** Applies the next batch of SMS events to the SMSHooks; returns how many were read. */
  async fanOutSms(limit = FAN_OUT_BATCH): Promise<number> {
    const { read, queued } = await fanOutSmsEvents(this.deps.database, limit, this.now());
    if (queued > 0) this.wake();
    return read;
  }

  private async fanOutLoop(): Promise<void> {
    while (this.running) {
      let read = 0;
      try {
        read = await this.fanOut();
      } catch (error) {
        this.deps.logger.error({ err: error }, 'webhook fan-out failed');
      }
      try {
        read = Math.max(read, await this.fanOutSms());
      } catch (error) {
        this.deps.logger.error({ err: error }, 'SMSHook fan-out failed');
      }
      if (read < FAN_OUT_BATCH) await sleep(this.deps.settings.pollMs);
    }
  }

  private async pushLoop(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    while (this.running) {
      if (inFlight.size >= this.deps.settings.rounds) {
        await Promise.race(inFlight);
        continue;
      }
      let claimed: deliveries.ClaimedDelivery[] = [];
      try {
        claimed = await deliveries.claim(
          this.deps.database,
          this.owner,
          this.deps.settings.batch,
          this.now(),
          this.deps.settings.leaseMs,
        );
      } catch (error) {
        this.deps.logger.error({ err: error }, 'claiming webhook pushes failed');
      }
      if (claimed.length === 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.deps.settings.pollMs);
          this.wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        continue;
      }
      const round: Promise<void> = this.send(claimed)
        .catch((error: unknown) => this.deps.logger.error({ err: error }, 'webhook push round failed'))
        .finally(() => inFlight.delete(round));
      inFlight.add(round);
    }
    await Promise.all(inFlight);
  }

  private async send(claimed: deliveries.ClaimedDelivery[]): Promise<void> {
    const ids = [...new Set(claimed.map((d) => d.webhook_id))];
    const hooks = new Map(
      (await webhooks.hooksByIds(this.deps.database, ids)).map((h) => [
        Number(h.id),
        { ...h, key: this.openKey(h) },
      ]),
    );
    const { retries, retryBaseMs, unavailableAfterMs } = this.deps.settings;
    const records = await Promise.all(
      claimed.map(async (delivery): Promise<deliveries.AttemptRecord> => {
        const hook = hooks.get(delivery.webhook_id);
        if (hook?.status !== 'normal') {
          const at = this.now();
          return {
            delivery,
            requestBody: null,
            responseCode: null,
            error: 'webhook unavailable',
            durationMs: 0,
            at,
            status: 'failed',
            nextAttemptAt: at,
          };
        }
        const body = signedBody(JSON.parse(delivery.payload), hook.key, delivery.event_at);
        const result = await this.limited(delivery.webhook_id, () =>
          this.deps.client.post(String(delivery.webhook_id), hook.url, body),
        );
        const at = this.now();
        const tries = delivery.tries + 1;
        const status = result.ok ? 'delivered' : tries > retries ? 'failed' : 'pending';
        return {
          delivery,
          requestBody: body,
          responseCode: result.status,
          error: result.error,
          durationMs: result.durationMs,
          at,
          status,
          nextAttemptAt: status === 'pending' ? at + retryBaseMs * 2 ** (tries - 1) : at,
        };
      }),
    );
    await deliveries.record(this.deps.database, this.owner, records, this.now(), unavailableAfterMs);
  }

  /** Runs `task` within the webhook's concurrency cap. */
  private async limited<T>(webhookId: number, task: () => Promise<T>): Promise<T> {
    let slot = this.active.get(webhookId);
    if (!slot) {
      slot = { running: 0, waiting: [] };
      this.active.set(webhookId, slot);
    }
    const state = slot;
    if (state.running >= this.deps.settings.perWebhookConcurrency) {
      await new Promise<void>((resolve) => state.waiting.push(resolve));
    } else state.running += 1;
    try {
      return await task();
    } finally {
      const next = state.waiting.shift();
      if (next) next();
      else {
        state.running -= 1;
        if (state.running === 0) this.active.delete(webhookId);
      }
    }
  }

  private openKey(hook: HookRow): string {
    if (!hook.app_key_sealed) return '';
    return this.deps.secretBox.open(hook.app_key_sealed, appKeyContext(Number(hook.id)));
  }
}

/** Consecutive request events of one message form one group; every other event is its own. */
export function groupRequests(events: MailEvent[]): MailEvent[][] {
  const groups: MailEvent[][] = [];
  for (const event of events) {
    const last = groups[groups.length - 1];
    const head = last?.[0];
    if (
      last &&
      head &&
      event.kind === 'request' &&
      head.kind === 'request' &&
      head.messageId === event.messageId
    ) {
      last.push(event);
    } else groups.push([event]);
  }
  return groups;
}

async function messageFacts(trx: Kysely<DB>, messageIds: number[]): Promise<Map<number, MessageFacts>> {
  const facts = new Map<number, MessageFacts>();
  for (let i = 0; i < messageIds.length; i += 500) {
    const rows = await deliveries.messagesForPush(trx, messageIds.slice(i, i + 500));
    for (const row of rows) {
      facts.set(Number(row.id), {
        messageId: row.message_id,
        apiUser: row.api_user ?? '',
        labelName: row.label_name,
        userHeaders: userHeadersOf(row.headers),
      });
    }
  }
  return facts;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
