import { z } from 'zod';
import { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from '../mail-events.ts';
import type { ValidationKey } from '../validation.ts';

/**
 * Webhooks (product-spec §3 "WebHook: URL, app key (optional), event types, assigned API_USER,
 * status (normal or unavailable)"; §5 "URLs must begin with http(s); webhook must answer HTTP
 * 200; event list not empty"). The console's form and the `/config/webhooks` routes parse with
 * these schemas; the "answers 200" rule needs the network and is checked by the server on save.
 */
const rule = (key: ValidationKey) => ({ message: key });

/** Webhooks per account (SendCloud allows a handful; ten covers one per API_USER and "all"). */
export const WEBHOOK_MAX_PER_ACCOUNT = 10;
export const WEBHOOK_URL_MAX = 1024;
export const WEBHOOK_STATUSES = ['normal', 'unavailable'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];
/** The outbox row of one push: waiting (or between retries), in flight, done, given up. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
/** App keys: what the generator makes (32 letters and digits) or a key of the user's own. */
export const WEBHOOK_APP_KEY = /^[A-Za-z0-9_-]{8,64}$/;

export const webhookUrlSchema = z
  .string(rule('webhookUrlRequired'))
  .trim()
  .min(1, rule('webhookUrlRequired'))
  .max(WEBHOOK_URL_MAX, rule('webhookUrlFormat'))
  .refine((value) => {
    if (!/^https?:\/\//i.test(value)) return false;
    try {
      const url = new URL(value);
      return url.hostname.length > 0 && !url.username && !url.password;
    } catch {
      return false;
    }
  }, rule('webhookUrlFormat'));

/** Events as an array or a comma list ("deliver,open"); at least one, each a known kind. */
export const webhookEventsSchema = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : value,
  z
    .array(z.enum(WEBHOOK_EVENT_KINDS, rule('webhookEventUnknown')), rule('webhookEventsRequired'))
    .min(1, rule('webhookEventsRequired'))
    .transform((events) => WEBHOOK_EVENT_KINDS.filter((kind) => events.includes(kind))),
);

/** The API_USER a webhook listens to; null (or "all", "", 0) is every API_USER of the account. */
export const webhookTargetSchema = z.preprocess(
  (value) => (value === undefined || value === null || value === '' || value === 'all' ? null : value),
  z.coerce
    .number(rule('webhookApiUser'))
    .int(rule('webhookApiUser'))
    .nonnegative(rule('webhookApiUser'))
    .nullable(),
);

/** '' removes the key; absent on an edit keeps it. */
export const webhookAppKeySchema = z
  .string(rule('webhookAppKeyFormat'))
  .trim()
  .refine((value) => value === '' || WEBHOOK_APP_KEY.test(value), rule('webhookAppKeyFormat'));

export const webhookInputSchema = z.object({
  url: webhookUrlSchema,
  events: webhookEventsSchema,
  apiUserId: webhookTargetSchema.transform((id) => (id === 0 ? null : id)),
  appKey: webhookAppKeySchema.optional(),
});
export type WebhookInput = z.infer<typeof webhookInputSchema>;

export const webhookIdSchema = z.coerce
  .number(rule('invalid'))
  .int(rule('invalid'))
  .positive(rule('invalid'));

export const webhookDeliveryQuerySchema = z.object({
  page: z.coerce.number(rule('invalid')).int(rule('invalid')).min(1, rule('invalid')).default(1),
  pageSize: z.coerce
    .number(rule('invalid'))
    .int(rule('invalid'))
    .min(1, rule('invalid'))
    .max(100, rule('invalid'))
    .default(20),
});

/** What the console shows of a webhook. */
export interface WebhookView {
  id: number;
  url: string;
  events: WebhookEventKind[];
  /** null: every API_USER. */
  apiUserId: number | null;
  apiUserName: string | null;
  /** Shown to the owner so the receiver can verify signatures; null when none is set. */
  appKey: string | null;
  status: WebhookStatus;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** One push attempt in the delivery log. */
export interface WebhookAttemptView {
  id: number;
  deliveryId: number;
  event: WebhookEventKind;
  recipient: string;
  /** The form body as sent (no app key: only its signature). */
  requestBody: string;
  responseCode: number | null;
  error: string | null;
  durationMs: number;
  attempt: number;
  at: number;
  /** The push's state now (a failed attempt may since have been retried). */
  status: WebhookDeliveryStatus;
}

/** A page of a webhook's delivery log. */
export interface WebhookAttemptsPage {
  list: WebhookAttemptView[];
  total: number;
  page: number;
  pageSize: number;
}

/** The outcome of a test push (`/config/webhooks/test/{id}`) or the probe on save. */
export interface WebhookTestResult {
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
}
