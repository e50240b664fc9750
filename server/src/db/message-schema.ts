import type { Generated } from 'kysely';

/** Row types of accepted mail (migration 0016): messages, their bodies, recipients, idempotency, quotas. */

export type MessageSource = 'api' | 'smtp' | 'test';
export type RecipientKind = 'to' | 'cc' | 'bcc';

export interface MessagesTable {
  id: Generated<number>;
  account_id: number;
  api_user_id: number | null;
  /** SendCloud-style id, e.g. `1700000000000_1_2_3.sc-host-inbound`; emailIds derive from it. */
  message_id: string;
  source: MessageSource;
  email_type: 'trigger' | 'batch';
  from_address: string;
  from_name: string | null;
  /** `;`-separated, at most 3. */
  reply_to: string | null;
  subject: string;
  content_summary: string | null;
  label_id: number | null;
  template_id: number | null;
  /** JSON object of extra headers (SC-Custom-* kept for webhooks). */
  headers: string | null;
  /** The validated xsmtpapi JSON (sub, section, pubsub, filters, settings), for the delivery engine. */
  xsmtpapi: string | null;
  use_notification: Generated<number>;
  /** 1 when every recipient gets their own mail (xsmtpapi.to); 0 for one broadcast mail. */
  individual: Generated<number>;
  recipient_count: number;
  /** The list task whose chunk this message is (migration 0048); null for every other send. */
  list_task_id: Generated<number | null>;
  size_bytes: number;
  created_at: number;
}

/** The body: html/plain of an API send, or the raw MIME of an SMTP submission. */
export interface MessageContentsTable {
  message_id: number;
  account_id: number;
  html: string | null;
  plain: string | null;
  mime: Buffer | null;
}

export interface MessageAttachmentsTable {
  id: Generated<number>;
  message_id: number;
  account_id: number;
  filename: string;
  content_type: string;
  content: Buffer;
}

/** One per recipient: the durable delivery queue (status `requested` until issue 6's engine claims it). */
export interface MessageRecipientsTable {
  id: Generated<number>;
  account_id: number;
  message_id: number;
  rcpt_index: number;
  /** messageId + index + '$' + recipient (SendCloud's emailId). */
  email_id: string;
  recipient: string;
  recipient_domain: string;
  kind: RecipientKind;
  status: string;
  /** JSON object of this recipient's xsmtpapi `sub` values, e.g. {"%name%":"Ben"}. */
  vars: string | null;
  /** 0 transactional, 1 a list task's: the delivery claim takes lane 0 first (migration 0048). */
  lane: Generated<number>;
  attempts: Generated<number>;
  next_attempt_at: number;
  created_at: number;
  updated_at: number;
}

export interface SendRequestsTable {
  id: Generated<number>;
  account_id: number;
  send_request_id: string;
  message_id: string;
  /** JSON array of the emailIds answered the first time. */
  email_ids: string;
  expires_at: number;
}

export interface DailyUsageTable {
  account_id: number;
  api_user_id: number;
  /** yyyy-mm-dd in Asia/Shanghai (UTC+8), the day SendCloud's quotas reset on. */
  day: string;
  count: number;
}
