import type { Generated } from 'kysely';
import type {
  AddressListImportsTable,
  AddressListMembersTable,
  AddressListsTable,
  MailListTasksTable,
} from './address-list-schema.ts';
import type { DedicatedIpsTable, IpPoolTable } from './dedicated-ip-schema.ts';
import type { DeliveryRecipientColumns, RecipientAttemptsTable } from './delivery-schema.ts';
import type { DataExportOfflinesTable } from './export-schema.ts';
import type { InvoiceProfilesTable, InvoicesTable } from './invoice-schema.ts';
import type {
  AccountBalancesTable,
  BalanceNoticesTable,
  ChargeAccrualsTable,
  LedgerEntriesTable,
  PricesTable,
} from './ledger-schema.ts';
import type { MailEventCursorsTable, MailEventsTable } from './mail-event-schema.ts';
import type {
  DailyUsageTable,
  MessageAttachmentsTable,
  MessageContentsTable,
  MessageRecipientsTable,
  MessagesTable,
  SendRequestsTable,
} from './message-schema.ts';
import type { PaymentSettingsTable, RechargeOrdersTable } from './recharge-schema.ts';
import type {
  QueuePausesTable,
  SenderConfigEntriesTable,
  SenderConfigSwitchesTable,
} from './sender-config-schema.ts';
import type {
  ApiKeysTable,
  ApiUserSendersTable,
  ApiUsersTable,
  EmailTemplatesTable,
  LabelsTable,
  MailRouteCodesTable,
  MailRoutesTable,
  SendingDomainsTable,
} from './sending-schema.ts';
import type {
  MessageNotifiersTable,
  MessageSettingsTable,
  NoticeSmsTable,
  SiteMessagesTable,
} from './site-message-schema.ts';
import type {
  SmsBlocksTable,
  SmsCarrierIdsTable,
  SmsCarriersTable,
  SmsContactImportsTable,
  SmsContactListsTable,
  SmsContactMembersTable,
  SmsContentSettingsTable,
  SmsCountryPricesTable,
  SmsEventsTable,
  SmsFrequencyLimitsTable,
  SmsGatewayCapsTable,
  SmsGatewayReceiptsTable,
  SmsGatewayUsersTable,
  SmsKeywordsTable,
  SmsLinkClicksTable,
  SmsLinkIdBlocksTable,
  SmsLinkSettingsTable,
  SmsMessagesTable,
  SmsMmsBodiesTable,
  SmsRepliesTable,
  SmsRoutesTable,
  SmsSendRequestsTable,
  SmsShortLinksTable,
  SmsTemplateCountsTable,
  SmsTemplatePausesTable,
} from './sms-schema.ts';
import type { SmsTasksTable } from './sms-task-schema.ts';
import type {
  ReputationHistoryTable,
  StatAccountDaysTable,
  StatDaysTable,
  StatDeliveryTimesTable,
  StatDomainDaysTable,
  StatHoursTable,
  StatMonitorConfigsTable,
} from './statistics-schema.ts';
import type { SubscriptionSignupsTable, SubscriptionsTable } from './subscription-schema.ts';
import type {
  InterceptRulesTable,
  SuppressionEntriesTable,
  SuppressionGlobalInvalidTable,
  SuppressionReleasesTable,
} from './suppression-schema.ts';
import type { TimedTaskFilesTable, TimedTasksTable } from './timed-task-schema.ts';
import type { RecipientTracksTable, SslCertificatesTable, TrackingDomainsTable } from './tracking-schema.ts';
import type { UnsubscribePageChoicesTable, UnsubscribePagesTable } from './unsubscribe-schema.ts';
import type { BenefitPackagesTable, PackageUsageTable, VouchersTable } from './voucher-schema.ts';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from './webhook-schema.ts';

/** Row types of every table, in step with migrations/. */
export interface DB {
  accounts: AccountsTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_events: LoginEventsTable;
  system_messages: SystemMessagesTable;
  system_message_parts: SystemMessagePartsTable;
  captchas: CaptchasTable;
  slider_challenges: SliderChallengesTable;
  verification_codes: VerificationCodesTable;
  rate_limits: RateLimitsTable;
  account_tokens: AccountTokensTable;
  user_security_settings: UserSecuritySettingsTable;
  account_ip_whitelists: AccountIpWhitelistsTable;
  pending_logins: PendingLoginsTable;
  user_permissions: UserPermissionsTable;
  jobs: JobsTable;
  queue_settings: QueueSettingsTable;
  job_schedules: JobSchedulesTable;
  nodes: NodesTable;
  wechat_bindings: WechatBindingsTable;
  wechat_states: WechatStatesTable;
  sending_domains: SendingDomainsTable;
  labels: LabelsTable;
  api_users: ApiUsersTable;
  api_keys: ApiKeysTable;
  api_user_senders: ApiUserSendersTable;
  email_templates: EmailTemplatesTable;
  account_profiles: AccountProfilesTable;
  messages: MessagesTable;
  message_contents: MessageContentsTable;
  message_attachments: MessageAttachmentsTable;
  message_recipients: MessageRecipientsTable & DeliveryRecipientColumns;
  recipient_attempts: RecipientAttemptsTable;
  send_requests: SendRequestsTable;
  daily_usage: DailyUsageTable;
  suppression_global_invalid: SuppressionGlobalInvalidTable;
  suppression_entries: SuppressionEntriesTable;
  suppression_releases: SuppressionReleasesTable;
  intercept_rules: InterceptRulesTable;
  sender_config_switches: SenderConfigSwitchesTable;
  sender_config_entries: SenderConfigEntriesTable;
  queue_pauses: QueuePausesTable;
  mail_events: MailEventsTable;
  mail_event_cursors: MailEventCursorsTable;
  tracking_domains: TrackingDomainsTable;
  ssl_certificates: SslCertificatesTable;
  recipient_tracks: RecipientTracksTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  data_export_offlines: DataExportOfflinesTable;
  unsubscribe_pages: UnsubscribePagesTable;
  unsubscribe_page_choices: UnsubscribePageChoicesTable;
  stat_hours: StatHoursTable;
  stat_days: StatDaysTable;
  stat_domain_days: StatDomainDaysTable;
  stat_account_days: StatAccountDaysTable;
  stat_delivery_times: StatDeliveryTimesTable;
  reputation_history: ReputationHistoryTable;
  stat_monitor_configs: StatMonitorConfigsTable;
  quota_raises: QuotaRaisesTable;
  sms_users: SmsUsersTable;
  sms_keys: SmsKeysTable;
  sms_filings: SmsFilingsTable;
  sms_signs: SmsSignsTable;
  sms_templates: SmsTemplatesTable;
  uploaded_files: UploadedFilesTable;
  sms_carriers: SmsCarriersTable;
  sms_routes: SmsRoutesTable;
  sms_messages: SmsMessagesTable;
  sms_carrier_ids: SmsCarrierIdsTable;
  sms_mms_bodies: SmsMmsBodiesTable;
  sms_send_requests: SmsSendRequestsTable;
  sms_events: SmsEventsTable;
  sms_frequency_limits: SmsFrequencyLimitsTable;
  sms_blocks: SmsBlocksTable;
  sms_keywords: SmsKeywordsTable;
  sms_template_pauses: SmsTemplatePausesTable;
  sms_template_counts: SmsTemplateCountsTable;
  sms_replies: SmsRepliesTable;
  sms_gateway_users: SmsGatewayUsersTable;
  sms_gateway_caps: SmsGatewayCapsTable;
  sms_gateway_receipts: SmsGatewayReceiptsTable;
  sms_content_settings: SmsContentSettingsTable;
  sms_link_settings: SmsLinkSettingsTable;
  sms_link_id_blocks: SmsLinkIdBlocksTable;
  sms_short_links: SmsShortLinksTable;
  sms_link_clicks: SmsLinkClicksTable;
  sms_country_prices: SmsCountryPricesTable;
  sms_contact_lists: SmsContactListsTable;
  sms_contact_members: SmsContactMembersTable;
  sms_contact_imports: SmsContactImportsTable;
  sms_tasks: SmsTasksTable;
  address_lists: AddressListsTable;
  address_list_members: AddressListMembersTable;
  address_list_imports: AddressListImportsTable;
  mail_list_tasks: MailListTasksTable;
  timed_tasks: TimedTasksTable;
  timed_task_files: TimedTaskFilesTable;
  subscriptions: SubscriptionsTable;
  subscription_signups: SubscriptionSignupsTable;
  mail_routes: MailRoutesTable;
  mail_route_codes: MailRouteCodesTable;
  ledger_entries: LedgerEntriesTable;
  account_balances: AccountBalancesTable;
  balance_notices: BalanceNoticesTable;
  recharge_orders: RechargeOrdersTable;
  payment_settings: PaymentSettingsTable;
  dedicated_ips: DedicatedIpsTable;
  ip_pool: IpPoolTable;
  invoice_profiles: InvoiceProfilesTable;
  invoices: InvoicesTable;
  prices: PricesTable;
  charge_accruals: ChargeAccrualsTable;
  vouchers: VouchersTable;
  benefit_packages: BenefitPackagesTable;
  package_usage: PackageUsageTable;
  site_messages: SiteMessagesTable;
  message_settings: MessageSettingsTable;
  message_notifiers: MessageNotifiersTable;
  notice_sms: NoticeSmsTable;
}

/** The tenant. Every tenant-owned table carries account_id referencing it. */
export type AccountState = 'active' | 'suspended' | 'frozen';

export interface AccountsTable {
  id: Generated<number>;
  username: string;
  /** 1 for accounts that came through the Huawei Cloud marketplace (their menu hides teammates). */
  is_huawei_yun: Generated<number>;
  /** `platform` for the operators' own account, created on first start; `customer` otherwise. */
  kind: Generated<'customer' | 'platform'>;
  /** Plan gating (product-spec §1): free accounts have tighter limits (e.g. 10 emails a day). */
  plan: Generated<'free' | 'paid'>;
  /** The account's daily email quota; null means the plan's default. */
  daily_quota: number | null;
  /** Hide delivery-data download buttons and refuse export downloads (migration 0025). */
  hide_export: Generated<number>;
  /** The `taskPrivate` system parameter (migration 0050). */
  task_private: Generated<number>;
  /** Set by operators (migration 0026): suspended and frozen accounts send nothing. */
  state: Generated<AccountState>;
  state_changed_at: number | null;
  /** Marked by operators (migration 0030) until certification is built; SMS and voice need `enterprise`. */
  certification: Generated<AccountCertification>;
  created_at: number;
  updated_at: number;
}

export type AccountCertification = 'none' | 'personal' | 'enterprise';

/** A temporary quota increase (migration 0028): `extra` mails a day from from_day to to_day. */
export interface SmsUsersTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  c_type: 'normal' | 'test';
  created_at: number;
}

export interface SmsKeysTable {
  id: Generated<number>;
  account_id: number;
  sms_user_id: number;
  key_hash: string;
  key_hint: string;
  /** The key sealed with the secret box (migration 0030): the SMS API's MD5 signature needs it. */
  key_sealed: string | null;
  created_at: number;
  expires_at: number | null;
}

/** Review state shared by SMS filings, signatures and templates. */
export type SmsReviewStatus = 'unsubmitted' | 'reviewing' | 'passed' | 'rejected' | 'disabled';

/** The account's SMS filing (one per account): domestic SMS, MMS and voice need it passed. */
export interface SmsFilingsTable {
  id: Generated<number>;
  account_id: number;
  handler_name: string;
  /** Sealed with the secret box: a person's ID number. */
  handler_id_number: string;
  /** Stored file key of the commitment-book image (jpg, png or pdf). */
  commitment_file: string;
  status: SmsReviewStatus;
  reject_reason: string | null;
  created_at: number;
  updated_at: number;
}

export interface SmsSignsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  sign_type: 'domestic' | 'international';
  /** enterprise, trademark, app, public_account, shop, brand */
  source: string;
  third_party: Generated<number>;
  /** JSON: third-party licence, legal person (ID number sealed), ID side, attachment file keys. */
  details: Generated<string>;
  status: SmsReviewStatus;
  reject_reason: string | null;
  created_at: number;
  updated_at: number;
}

/** A file uploaded for SMS compliance (migration 0031): png, jpeg or pdf by its bytes, at most 2 MB. */
export interface UploadedFilesTable {
  id: Generated<number>;
  account_id: number;
  purpose: 'sms_sign' | 'sms_filing';
  name: string;
  content_type: 'image/png' | 'image/jpeg' | 'application/pdf';
  size: number;
  content: Buffer;
  /** `sms_sign:<id>` or `sms_filing:<id>` once a signature or filing names it; null before. */
  attached_to: string | null;
  created_at: number;
}

export interface SmsTemplatesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  kind: 'sms' | 'voice' | 'mms';
  region: Generated<'domestic' | 'international'>;
  /** code (verification code), notice (industry notice) or marketing */
  sms_type: 'code' | 'notice' | 'marketing';
  content: string;
  /** JSON object: variable name → example value. */
  variables: Generated<string>;
  /** MMS only, JSON: up to 3 pages of {text, image, audio}. */
  pages: string | null;
  sign_id: number | null;
  track_links: Generated<number>;
  status: SmsReviewStatus;
  reject_reason: string | null;
  last_sent_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface QuotaRaisesTable {
  id: Generated<number>;
  account_id: number;
  extra: number;
  /** Asia/Shanghai quota days, inclusive: the day of the grant and the next. */
  from_day: string;
  to_day: string;
  /** The Asia/Shanghai month of the grant (yyyy-MM): two grants a month at most. */
  month: string;
  granted_by: number | null;
  granted_at: number;
}

/** A person who logs in to the console: the account's owner or a member (teammate). */
export interface UsersTable {
  id: Generated<number>;
  account_id: number;
  username: string;
  email: string;
  phone: string | null;
  password_hash: string | null;
  is_owner: number;
  /** A member's type (product-spec §6); null for the owner, who holds every code. */
  member_type: 'administrator' | 'visitor' | 'custom' | null;
  /** The name the team knows a member by (the user name is the login name). */
  display_name: string | null;
  /** Comma list of the quick presets a custom member was given (developer, operation, finance). */
  member_roles: Generated<string>;
  /** The user who invited this member. */
  invited_by: number | null;
  status: 'inactive' | 'active' | 'suspended';
  /** Where account notices go when it is not the login email; null means the login email. */
  receive_email: string | null;
  /**
   * Unused since the lockout became per user and client address, counted from login_events
   * (core/auth/auth.service.ts); left in the table by migration 0003.
   */
  failed_logins: Generated<number>;
  locked_until: number | null;
  created_at: number;
  updated_at: number;
}

/** The login log shown on the security screen (time, IP, result). */
export interface LoginEventsTable {
  id: Generated<number>;
  account_id: number | null;
  user_id: number | null;
  login_name: string;
  ip: string | null;
  user_agent: string | null;
  /**
   * verify_required: the password was right and a second step (login protection) was asked;
   * verify_failed: a wrong second-step code; ip_refused: outside the account's IP whitelist.
   */
  result:
    | 'success'
    | 'bad_credentials'
    | 'locked'
    | 'inactive'
    | 'suspended'
    | 'verify_required'
    | 'verify_failed'
    | 'ip_refused';
  created_at: number;
}

/** A console login. Only a SHA-256 of the token is stored. */
export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  account_id: number;
  user_id: number;
  ip: string | null;
  user_agent: string | null;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** Until when the session counts as verified for sensitive operations (POST /verify/sys). */
  sensitive_verified_until: number | null;
  /** Until when the session counts as verified for downloads (POST /verify/download). */
  download_verified_until: number | null;
}

export interface JobsTable {
  id: Generated<number>;
  queue: string;
  name: string;
  payload: string;
  /** waiting (run_at may be in the future: delayed), active, completed, dead. */
  state: 'waiting' | 'active' | 'completed' | 'dead';
  priority: number;
  run_at: number;
  attempts: number;
  max_attempts: number;
  backoff_ms: number;
  /** Cleared when the job finishes, so the key can be used again. */
  dedupe_key: string | null;
  lease_token: string | null;
  lease_until: number | null;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
}

export interface QueueSettingsTable {
  queue: string;
  paused: number;
  updated_at: number;
}

export interface JobSchedulesTable {
  id: string;
  cron: string;
  timezone: string;
  queue: string;
  name: string;
  payload: string;
  next_run_at: number;
  last_run_at: number | null;
  updated_at: number;
}

/** One row per running Herald process, for operators and readiness. */
export interface NodesTable {
  id: string;
  roles: string;
  hostname: string;
  pid: number;
  started_at: number;
  last_seen_at: number;
  stopped_at: number | null;
}

/** A custom member's level on one permission code; a code without a row is not held. */
export interface UserPermissionsTable {
  account_id: number;
  user_id: number;
  code: number;
  level: 'full' | 'read';
}

/** A one-time link token (activation, password reset, invitation); only its SHA-256 is kept. */
export interface AccountTokensTable {
  id: Generated<number>;
  token_hash: string;
  account_id: number;
  user_id: number;
  purpose: 'activation' | 'password_reset' | 'invite';
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** An image captcha; the answer is kept only as a salted SHA-256 (see captcha.service.ts). */
export interface CaptchasTable {
  id: string;
  purpose: string;
  answer_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A slider challenge: the notch's x stays here; a solved one holds a one-time pass token's hash. */
export interface SliderChallengesTable {
  id: string;
  x: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  pass_hash: string | null;
  pass_expires_at: number | null;
  pass_used_at: number | null;
}

/** A code sent by SMS or email; only a salted SHA-256 of the code is kept. */
export interface VerificationCodesTable {
  id: Generated<number>;
  purpose: string;
  channel: 'sms' | 'email';
  target: string;
  code_hash: string;
  salt: string;
  attempts: Generated<number>;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
}

/** A fixed-window counter: hits of `key` in `bucket` since window_start. */
export interface RateLimitsTable {
  bucket: string;
  key: string;
  window_start: number;
  count: number;
  expires_at: number;
}

/**
 * A message of Herald's own (activation mail, verification code), with its latest outcome.
 * `sent` is SMS only: the carrier accepted it and its delivery receipt is awaited.
 */
export interface SystemMessagesTable {
  id: Generated<number>;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  body: string;
  html: string | null;
  status: 'queued' | 'sent' | 'delivered' | 'deferred' | 'bounced' | 'failed';
  /** Human-readable last outcome: the remote SMTP reply, the carrier's status or receipt. */
  reason: string | null;
  attempts: Generated<number>;
  /** SMSC message id(s), comma-separated for a concatenated SMS. */
  remote_id: string | null;
  created_at: number;
  updated_at: number;
}

/** One submitted part of a system SMS, matched to its delivery receipt by remote_id. */
export interface SystemMessagePartsTable {
  id: Generated<number>;
  message_id: number;
  seq: number;
  remote_id: string;
  status: 'sent' | 'delivered' | 'failed';
  reason: string | null;
  updated_at: number;
}

/** A user's verification choices and Google authenticator; no row means the defaults. */
export interface UserSecuritySettingsTable {
  user_id: number;
  account_id: number;
  login_verify: Generated<'off' | 'always' | 'newIp'>;
  login_verify_way: Generated<'sms' | 'email' | 'google'>;
  download_verify: Generated<number>;
  sensitive_verify: Generated<number>;
  /** The bound TOTP secret, sealed (secret-box.ts); null when none is bound. */
  totp_secret: string | null;
  totp_bound_at: number | null;
  /** The last TOTP step accepted: a code of that step or an earlier one is refused. */
  totp_last_step: number | null;
  /** A secret shown as a QR code and not yet confirmed by a code, sealed. */
  totp_pending: string | null;
  totp_pending_expires_at: number | null;
  /** When the user acknowledged their first protected login (POST loginVerify/firstLoginSuccess). */
  protected_login_ack_at: number | null;
  updated_at: number;
}

/** The account's IP whitelist: entries one per line as typed (normalised), and its switch. */
export interface AccountIpWhitelistsTable {
  account_id: number;
  enabled: Generated<number>;
  entries: Generated<string>;
  updated_at: number;
}

/** A login whose password was right and which waits for its second step; the token is hashed. */
export interface PendingLoginsTable {
  id: Generated<number>;
  token_hash: string;
  account_id: number;
  user_id: number;
  login_name: string;
  ip: string | null;
  user_agent: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A user's bound WeChat identity (openid of Herald's app, unionid when WeChat gives one). */
export interface WechatBindingsTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  openid: string;
  unionid: string | null;
  nickname: string | null;
  created_at: number;
}

/**
 * A WeChat authorisation in flight, known by the SHA-256 of its state. `login` states are
 * anonymous until the scan names a user; `bind` states belong to the logged-in user who asked.
 * `handoff` is the sealed session (or pending-login) token, held until checkStat hands it out once.
 */
export interface WechatStatesTable {
  id: Generated<number>;
  state_hash: string;
  purpose: 'login' | 'bind';
  account_id: number | null;
  user_id: number | null;
  status: 'waiting' | 'loggedIn' | 'needBind' | 'verifyRequired' | 'bound' | 'failed' | 'done';
  openid: string | null;
  unionid: string | null;
  nickname: string | null;
  handoff: string | null;
  error_code: string | null;
  /** JSON of the error's parameters. */
  error_params: string | null;
  created_at: number;
  expires_at: number;
}

/** An account's details (`/userInfo/edited/*`): holder type, company, person, notice address. */
export interface AccountProfilesTable {
  account_id: number;
  holder_type: 'personal' | 'enterprise' | null;
  company_name: string | null;
  company_website: string | null;
  industry: string | null;
  contact_name: string | null;
  contact_phone: string | null;
  real_name: string | null;
  /** The ID number sealed by the secret box; only id_number_masked is ever shown. */
  id_number_sealed: string | null;
  id_number_masked: string | null;
  exmail: string | null;
  updated_at: number;
}
