import type { SmsPauseStatus } from '@herald/shared';
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
  /** The SMS task that wrote it (migration 0046). */
  task_id: Generated<number | null>;
  /** 0 transactional (API, codes, gateway), 1 a task's: the claim takes lane 0 first. */
  lane: Generated<number>;
  /** An MMS's pages with their media (migration 0057). */
  mms_body_id: Generated<number | null>;
  /** An MMS's page texts filled for this number, JSON (string | null)[]. */
  mms_texts: Generated<string | null>;
  /** A voice message's code, the digits its call reads out (migration 0058). */
  voice_code: Generated<string | null>;
}

/** An MMS's pages as its template had them when accepted, once per account and digest (migration 0057). */
export interface SmsMmsBodiesTable {
  id: Generated<number>;
  account_id: number;
  /** SHA-256 hex of `pages`. */
  digest: string;
  /** JSON MmsPage[]: texts unfilled, media base64. */
  pages: string;
  created_at: number;
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

/** What became of a pause: SMS_PAUSE_STATUSES in @herald/shared. */
export type { SmsPauseStatus };

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

/** An account's SMS content view switch (migration 0038); no row is off. */
export interface SmsContentSettingsTable {
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

/** A customer system's CMPP_USER or SMPP system id (migration 0042). */
export interface SmsGatewayUsersTable {
  id: Generated<number>;
  account_id: number;
  protocol: 'cmpp' | 'smpp';
  name: string;
  /** The shared secret (CMPP) or password (SMPP), sealed with the secret box. */
  secret_sealed: string;
  secret_hint: string;
  /** Comma-separated IPs, ranges or CIDRs; '' for any. */
  allowed_ips: Generated<string>;
  window_size: number;
  per_second: number;
  created_at: number;
  updated_at: number;
}

/** The operator's cap of gateway users for an account; no row is the default. */
export interface SmsGatewayCapsTable {
  account_id: number;
  max_users: number;
  updated_at: number;
}

/** waiting (the SMS has not settled) → ready (owed to the customer) → acked (answered) or done (no report wanted). */
export type SmsGatewayReceiptState = 'waiting' | 'ready' | 'acked' | 'done';

/** A status report (one per Msg_Id given) or a reply owed to a gateway user's connection. */
export interface SmsGatewayReceiptsTable {
  id: Generated<number>;
  account_id: number;
  gateway_user_id: number;
  sms_message_id: number | null;
  kind: 'report' | 'mo';
  /** The Msg_Id (16 hex digits) or SMPP message_id Herald answered the submit with; '' for a reply. */
  msg_id: string;
  /** E.164. */
  phone: string;
  /** The customer's Src_Id / source_addr of the submit: a report's and a reply's destination. */
  src_id: string;
  wants_report: number;
  state: SmsGatewayReceiptState;
  /** DELIVRD, UNDELIV, REJECTD, … once settled. */
  stat: string | null;
  /** A reply's text. */
  content: string | null;
  submitted_at: number;
  done_at: number | null;
  /** When it was last handed to a connection; null when it may go now. */
  sent_at: number | null;
}

/** An SMS contact list (migration 0040); its members' rows name it by list_id. */
export interface SmsContactListsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  description: Generated<string>;
  /** Committed members only: kept in step by every add, delete and committed import. */
  member_count: Generated<number>;
  /** JSON array: the variable names its members carry, in first-seen order. */
  var_names: Generated<string>;
  /** The import whose rows are written but not yet part of the list; null when none runs. */
  pending_import_id: number | null;
  created_at: number;
  updated_at: number;
  last_used_at: number | null;
}

export interface SmsContactMembersTable {
  id: Generated<number>;
  list_id: number;
  /** E.164 with the plus. */
  phone: string;
  name: Generated<string>;
  /** JSON object of up to 10 variables; null when none. */
  vars: string | null;
  /** The import that wrote it; hidden while that import is its list's pending one. */
  import_id: number | null;
  created_at: number;
}

export interface SmsContactImportsTable {
  id: Generated<number>;
  account_id: number;
  list_id: number;
  file_name: string;
  /** txt, csv, xls or xlsx: how the file is read. */
  format: string;
  file_path: string;
  report_path: string | null;
  /** The uploader's language: the error report's reasons are written in it. */
  lang: string;
  status: 'queued' | 'running' | 'cancelling' | 'done' | 'failed' | 'cancelled';
  bytes_total: number;
  bytes_read: Generated<number>;
  lines_read: Generated<number>;
  added: Generated<number>;
  duplicates: Generated<number>;
  invalid: Generated<number>;
  error_code: string | null;
  /** Runs started: one interrupted by a crash starts again, a file that keeps killing its reader fails. */
  attempts: Generated<number>;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}
