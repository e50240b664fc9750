import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Logger } from '../../logger.ts';
import { MailEventsService } from '../mail-events/mail-events.service.ts';
import { SmsHooksService } from './sms-hooks.service.ts';
import { UrlGuard } from './url-guard.ts';
import { WebhookClient } from './webhook-client.ts';
import { DEFAULT_DISPATCH, WebhookDispatcher, type WebhookDispatchSettings } from './webhook-dispatcher.ts';
import { WebhooksService } from './webhooks.service.ts';

/** SendCloud's receivers must answer within 3 seconds (reference §9). */
export const WEBHOOK_TIMEOUT_MS = 3000;

export interface Webhooks {
  service: WebhooksService;
  smsHooks: SmsHooksService;
  dispatcher: WebhookDispatcher;
  close(): Promise<void>;
}

/** Builds the webhook service and dispatcher over one URL guard and one HTTP client. */
export function createWebhooks(deps: {
  database: Database;
  secretBox: SecretBox;
  config: Pick<Config, 'dnsServers' | 'webhooks'>;
  logger: Logger;
  now?: () => number;
  settings?: Partial<WebhookDispatchSettings>;
}): Webhooks {
  const { config } = deps;
  const guard = new UrlGuard({ dnsServers: config.dnsServers, allowPrivate: config.webhooks.allowPrivate });
  const client = new WebhookClient({
    guard,
    timeoutMs: WEBHOOK_TIMEOUT_MS,
    maxSockets: config.webhooks.concurrency,
  });
  const service = new WebhooksService({
    database: deps.database,
    secretBox: deps.secretBox,
    guard,
    client,
    now: deps.now,
  });
  const dispatcher = new WebhookDispatcher({
    database: deps.database,
    mailEvents: new MailEventsService(deps.database),
    secretBox: deps.secretBox,
    client,
    logger: deps.logger.child({ component: 'webhooks' }),
    now: deps.now,
    settings: {
      ...DEFAULT_DISPATCH,
      retryBaseMs: config.webhooks.retryBaseMs,
      pollMs: config.webhooks.pollMs,
      perWebhookConcurrency: config.webhooks.concurrency,
      ...deps.settings,
    },
  });
  const smsHooks = new SmsHooksService({
    database: deps.database,
    secretBox: deps.secretBox,
    guard,
    client,
    now: deps.now,
  });
  return {
    service,
    smsHooks,
    dispatcher,
    async close() {
      await dispatcher.stop();
      client.close();
    },
  };
}
