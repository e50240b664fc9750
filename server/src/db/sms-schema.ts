import type { Generated } from 'kysely';

/** Row types of the SMS sending tables (migration 0033): carriers, routes, messages, events. */

export interface SmsCarriersTable {
  id: Generated<number>;
  name: string;
  /** smpp://host:port or cmpp://host:port?… : the scheme names the protocol. */
  url: string;
  system_id: string;
  /** The carrier password or shared secret, sealed with the secret box. */
  secret_sealed: string;
  /** The sender id (SMPP source_addr, CMPP Src_Id) this connection submits with. */
  source_addr: Generated<string>;
  /** Submits per second over this connection at most. */
  per_second: Generated<number>;
  enabled: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface SmsRoutesTable {
  id: Generated<number>;
  carrier_id: number;
  /** ISO 3166 alpha-2 country, or `*` for any. */
  country: string;
  /** National-number prefix the route is limited to; '' for all. */
  prefix: Generated<string>;
  /** sms, voice, mms or `*`. */
  kind: Generated<string>;
  /** Lower first; the next one is the failover. */
  priority: Generated<number>;
  created_at: number;
}

/**
 * requesting → waiting (submitted, awaiting the receipt) → delivered | send_failed; or
 * processing_failed before submission (product-spec §4).
 */
export type SmsMessageStatus = 'requesting' | 'waiting' | 'delivered' | 'send_failed' | 'processing_failed';

export interface SmsMessagesTable {
  id: Generated<number>;
  /** The id SendCloud clients see (`smsIds`). */
  sms_id: string;
  account_id: number;
  sms_user_id: number | null;
  template_id: number | null;
  label_id: number | null;
  /** 0 SMS, 1 MMS, 2 international, 3 voice (SendCloud's msgType). */
  msg_type: number;
  /** E.164 with the plus. */
  phone: string;
  country: string;
  /** What the Money issue charges by: domestic, international, voice, mms. */
  price_class: string;
  /** Billable parts as the carrier counts them. */
  parts: number;
  /** The text as sent: signature and variables in place. */
  content: string;
  tag: string | null;
  /** api, console (test send), task */
  source: string;
  status: SmsMessageStatus;
  /** 200 while going well; 4xx processing failure, 5xx send failure (reference §11). */
  status_code: number;
  reason: string | null;
  carrier_id: number | null;
  /** Comma-separated carrier ids already tried (failover skips them). */
  tried_carriers: Generated<string>;
  attempts: Generated<number>;
  /** Parts with a final receipt. */
  parts_done: Generated<number>;
  due_at: number;
  lease_owner: string | null;
  lease_until: number | null;
  requested_at: number;
  submitted_at: number | null;
  done_at: number | null;
  /** The anti-bombing pause holding it (due_at is then PAUSED_DUE_AT until it is continued). */
  pause_id: Generated<number | null>;
}

export interface SmsCarrierIdsTable {
  carrier_id: number;
  carrier_message_id: string;
  sms_message_id: number;
  final: Generated<number>;
}

export interface SmsSendRequestsTable {
  sms_user_id: number;
  request_id: string;
  /** The JSON `info` answered the first time. */
  answer: string;
  created_at: number;
}

export type SmsEventKind = 'request' | 'deliver' | 'workererror' | 'delivererror' | 'reply';

export interface SmsEventsTable {
  id: Generated<number>;
  account_id: number;
  sms_message_id: number;
  kind: SmsEventKind;
  status_code: number;
  message: string | null;
  at: number;
}

export interface SmsFrequencyLimitsTable {
  account_id: number;
  per_minute: number;
  per_day: number;
  /** 1 when a verification-code or voice template sending over template_max in template_window minutes is paused. */
  template_guard: Generated<number>;
  template_window: Generated<number>;
  template_max: Generated<number>;
  updated_at: number;
}

export type SmsPauseStatus = 'paused' | 'continued' | 'cancelled' | 'expired';

/** A template held by anti-bombing (migration 0039) and what became of it. */
export interface SmsTemplatePausesTable {
  id: Generated<number>;
  account_id: number;
  template_id: number;
  msg_type: number;
  status: SmsPauseStatus;
  /** SMS held by this pause so far. */
  paused_count: Generated<number>;
  started_at: number;
  last_request_at: number;
  handled_at: number | null;
  /** The console user who continued or cancelled it; null for the automatic cancel. */
  handled_by: number | null;
}

/** A template's SMS requests in one minute (minute = epoch ms / 60,000). */
export interface SmsTemplateCountsTable {
  template_id: number;
  minute: number;
  n: number;
}

/** A number SMS must not go to (migration 0036): `account_id` 0 is the platform's global list. */
export interface SmsBlocksTable {
  id: Generated<number>;
  account_id: number;
  kind: 'block' | 'unsubscribe';
  /** E.164. */
  phone: string;
  reason: string | null;
  /** manual, import, carrier (a carrier result), reply (an opt-out reply) */
  source: string;
  expires_at: number | null;
  created_at: number;
}

export interface SmsKeywordsTable {
  id: Generated<number>;
  account_id: number;
  keyword: string;
  created_at: number;
}

/** A handset's reply (migration 0041); account and SMS null when it could not be attributed. */
export interface SmsRepliesTable {
  id: Generated<number>;
  account_id: number | null;
  sms_message_id: number | null;
  carrier_id: number;
  /** E.164. */
  phone: string;
  /** The number it was sent to: the service code and extension. */
  dest: string;
  content: string;
  opt_out: Generated<number>;
  received_at: number;
}

/** An account's SMS link tracking switch (migration 0043). */
export interface SmsLinkSettingsTable {
  account_id: number;
  enabled: number;
  updated_at: number;
}

/** The next short-link id to hand out (one row, id 1). */
export interface SmsLinkIdBlocksTable {
  id: number;
  next_id: number;
}

/** One link of one SMS to one number; its short code is its id in base 62 with two signature characters. */
export interface SmsShortLinksTable {
  id: number;
  account_id: number;
  sms_id: string;
  /** E.164. */
  phone: string;
  url: string;
  created_at: number;
}

export interface SmsLinkClicksTable {
  id: Generated<number>;
  link_id: number;
  account_id: number;
  phone: string;
  url: string;
  /** 1 for previews, scanners, HEAD requests: never counted as a person's click. */
  machine: number;
  user_agent: string;
  at: number;
}

/** International SMS price and sender rule of one country (migration 0044). */
export interface SmsCountryPricesTable {
  /** ISO 3166 alpha-2. */
  country: string;
  /** Thousandths of a yuan per billed part. */
  price_milli: number;
  /** any, numeric, alphanumeric */
  sender_rule: string;
  sender_id: string | null;
  updated_at: number;
}
