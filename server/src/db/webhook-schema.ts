import type { WebhookDeliveryStatus, WebhookEventKind, WebhookStatus } from '@herald/shared';
import type { Generated } from 'kysely';

/** Row types of webhooks (migration 0023). */
export interface WebhooksTable {
  id: Generated<number>;
  account_id: number;
  url: string;
  /** Comma list of WebhookEventKind. */
  events: string;
  /** `mail` (a webhook), `sms` (an SMSHook, migration 0035) or `route` (a receive route's push, 0045). */
  channel: Generated<'mail' | 'sms' | 'route'>;
  /** The API_USER (SMS_USER for an SMSHook) listened to; 0 = all of the account (NOT NULL for the unique index). */
  api_user_id: number;
  /** The app key, sealed with the secret box; null when the webhook has none. */
  app_key_sealed: string | null;
  status: WebhookStatus;
  last_success_at: number | null;
  last_failure_at: number | null;
  /** The first failure since the last success: seven days of only failures make it unavailable. */
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

/** The outbox: one push of one event (or one message's request events) to one webhook. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  account_id: number;
  webhook_id: number;
  event: WebhookEventKind;
  /** The mail_events row (the first of a grouped request push). */
  event_id: number;
  recipient: string;
  /** JSON of the push's fields without timestamp, token and signature (made per attempt). */
  payload: string;
  /** The event's time in ms: the `timestamp` field. */
  event_at: number;
  status: WebhookDeliveryStatus;
  /** Attempts ever made (the log's attempt number). */
  attempts: Generated<number>;
  /** Attempts since the push was queued or replayed: picks the retry delay. */
  tries: Generated<number>;
  next_attempt_at: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  created_at: number;
  updated_at: number;
}

/** The delivery log: every attempt with what was sent and what came back. */
export interface WebhookAttemptsTable {
  id: Generated<number>;
  account_id: number;
  webhook_id: number;
  delivery_id: number;
  attempt: number;
  request_body: string;
  response_code: number | null;
  error: string | null;
  duration_ms: number;
  at: number;
}
