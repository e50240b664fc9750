/**
 * What can happen to a recipient after accept, as recorded in Herald's mail event log and pushed
 * to webhooks. The numeric codes are SendCloud's webhook event codes (reference §9), which its
 * `webhook/add` API takes and its clients send.
 */
export const MAIL_EVENT_KINDS = [
  'request',
  'deliver',
  'open',
  'click',
  'unsubscribe',
  'report_spam',
  'invalid',
  'soft_bounce',
] as const;

export type MailEventKind = (typeof MAIL_EVENT_KINDS)[number];

/** The event a recipient's final status produces; deferred and held are not final and produce none. */
export const OUTCOME_EVENT: Partial<Record<string, MailEventKind>> = {
  delivered: 'deliver',
  soft_bounce: 'soft_bounce',
  invalid: 'invalid',
};

/** Webhook events are the mail events plus `route` (inbound mail forwarded by a receive route). */
export const WEBHOOK_EVENT_KINDS = [...MAIL_EVENT_KINDS, 'route'] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

export const SENDCLOUD_EVENT_CODES: Record<WebhookEventKind, number> = {
  deliver: 1,
  report_spam: 3,
  invalid: 4,
  soft_bounce: 5,
  click: 10,
  open: 11,
  unsubscribe: 12,
  request: 18,
  route: 19,
};

/** Extra fields of an event, stored as JSON in mail_events.data. */
export interface MailEventData {
  /** click: the original link. */
  url?: string;
  /** open, click, unsubscribe: the client's address and what its user agent says. */
  ip?: string;
  userAgent?: string;
  explorerName?: string;
  explorerVer?: string;
  oSName?: string;
  oSVer?: string;
  /** open/click by a mail scanner or image proxy prefetching, not a person. */
  bot?: boolean;
  /** The recipient's first open (or first click) of this message: counts toward the unique figures. */
  first?: boolean;
  /** unsubscribe: the reason chosen on the unsubscribe page. */
  unsubscribeReason?: string;
  /** deliver: the remote's reply; invalid/soft_bounce: its classification. */
  reply?: string;
  /** The address the mail went out from (deliver: outIp). */
  outIp?: string;
}
