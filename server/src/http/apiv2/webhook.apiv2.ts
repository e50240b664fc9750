import {
  AppError,
  SENDCLOUD_EVENT_CODES,
  WEBHOOK_EVENT_KINDS,
  type WebhookEventKind,
  type WebhookView,
  webhookUrlSchema,
} from '@herald/shared';
import type { Apiv2Area } from './apiv2.plugin.ts';
import { sendCloudTime } from './apiv2-time.ts';
import { WEBHOOK_ADD, WEBHOOK_DELETE, WEBHOOK_LIST, WEBHOOK_UPDATE } from './webhook.params.ts';

const KIND_OF_CODE = new Map(
  Object.entries(SENDCLOUD_EVENT_CODES).map(([kind, code]) => [String(code), kind]),
);

/** SendCloud's `event`: comma list of numeric codes (1 deliver, 18 request, …), 40703/40704. */
function eventsOf(value: string | undefined): WebhookEventKind[] {
  const codes = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (codes.length === 0) throw new AppError('WEBHOOK_EVENT_REQUIRED');
  const kinds = new Set<string>();
  for (const code of codes) {
    const kind = KIND_OF_CODE.get(code);
    if (!kind) throw new AppError('WEBHOOK_EVENT_INVALID', { name: code });
    kinds.add(kind);
  }
  return WEBHOOK_EVENT_KINDS.filter((k) => kinds.has(k));
}

/** SendCloud's `url`: 40705 when missing, 40706 when not http(s). */
function urlOf(value: string | undefined): string {
  if (!value?.trim()) throw new AppError('WEBHOOK_URL_REQUIRED');
  const parsed = webhookUrlSchema.safeParse(value);
  if (!parsed.success) throw new AppError('WEBHOOK_URL_INVALID');
  return parsed.data;
}

function describe(webhook: WebhookView) {
  return {
    url: webhook.url,
    categoryName: webhook.apiUserName ?? 'all',
    event: webhook.events.map((kind) => SENDCLOUD_EVENT_CODES[kind]).join(','),
    eventName: webhook.events.join(','),
    status: webhook.status,
    gmtCreated: sendCloudTime(webhook.createdAt),
    gmtUpdated: sendCloudTime(webhook.updatedAt),
  };
}

/**
 * `webhook/list|add|update|delete` (sendcloud.net/doc/en/email_v2/webhook): a webhook is named by
 * its `url` and `categoryName` (an API_USER of the account or "all"); `event` is a comma list of
 * SendCloud's numeric event codes. An update changes exactly one of newCategoryName, newUrl,
 * newEvent. Adding and changing the URL probe it like the console does (40707).
 */
export const webhookApiv2: Apiv2Area = (action, core) => {
  const webhooks = core.webhooks;

  action('webhook/list', WEBHOOK_LIST, async ({ caller, params }) => {
    const f = params.fields;
    let list = await webhooks.list(caller);
    if (f.url?.trim()) list = list.filter((w) => w.url === f.url?.trim());
    if (f.categoryName?.trim())
      list = list.filter((w) => (w.apiUserName ?? 'all') === f.categoryName?.trim());
    if (f.event?.trim()) {
      const wanted = eventsOf(f.event);
      list = list.filter((w) => wanted.some((kind) => w.events.includes(kind)));
    }
    return { dataList: list.map(describe), count: list.length };
  });

  action('webhook/add', WEBHOOK_ADD, async ({ caller, params }) => {
    const f = params.fields;
    const url = urlOf(f.url);
    const target = await webhooks.targetByName(caller, f.categoryName ?? '');
    const events = eventsOf(f.event);
    const created = await webhooks.create(caller, { url, events, apiUserId: target.id || null });
    return { data: describe(created) };
  });

  action('webhook/update', WEBHOOK_UPDATE, async ({ caller, params }) => {
    const f = params.fields;
    const changes = (['newCategoryName', 'newUrl', 'newEvent'] as const).filter((name) => f[name]?.trim());
    if (changes.length !== 1) throw new AppError('WEBHOOK_UPDATE_ONE');
    const current = await webhooks.findByUrl(caller, urlOf(f.url), f.categoryName ?? '');
    const input = { url: current.url, events: current.events, apiUserId: current.apiUserId };
    if (f.newUrl?.trim()) input.url = urlOf(f.newUrl);
    if (f.newEvent?.trim()) input.events = eventsOf(f.newEvent);
    if (f.newCategoryName?.trim()) {
      input.apiUserId = (await webhooks.targetByName(caller, f.newCategoryName)).id || null;
    }
    await webhooks.update(caller, current.id, input);
    return { count: 1 };
  });

  action('webhook/delete', WEBHOOK_DELETE, async ({ caller, params }) => {
    const f = params.fields;
    const current = await webhooks.findByUrl(caller, urlOf(f.url), f.categoryName ?? '');
    await webhooks.remove(caller, current.id);
    return { count: 1 };
  });
};
