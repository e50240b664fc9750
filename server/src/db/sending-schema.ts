import type { Generated } from 'kysely';

/** Row types of the sending set-up tables (migration 0011): domains, API_USERs, labels, templates. */

/** The state of one DNS record of a domain, as the last check found it. */
export type RecordStatus = 'pending' | 'ok' | 'missing' | 'invalid' | 'error';

export interface SendingDomainsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  ip_type: Generated<'shared' | 'dedicated'>;
  /** product-spec §4: unverified (SPF, DKIM or MX failing), usable (DMARC missing), verified. */
  status: Generated<'unverified' | 'usable' | 'verified'>;
  dkim_selector: string;
  /** Base64 of the DER SubjectPublicKeyInfo, as published in the DKIM TXT record's p= tag. */
  dkim_public_key: string;
  /** The PKCS#8 PEM private key, sealed with the secret box. */
  dkim_private_key_sealed: string;
  /** A rotation's next key (migration 0012): published beside the current one, current once found. */
  dkim_next_selector: string | null;
  dkim_next_public_key: string | null;
  dkim_next_private_key_sealed: string | null;
  dkim_next_status: RecordStatus | null;
  dkim_next_error: string | null;
  /** Random value of the SendCloud-style verifyKey TXT record. */
  verify_key: string;
  spf_status: Generated<RecordStatus>;
  spf_found: string | null;
  spf_error: string | null;
  dkim_status: Generated<RecordStatus>;
  dkim_found: string | null;
  dkim_error: string | null;
  mx_status: Generated<RecordStatus>;
  mx_found: string | null;
  mx_error: string | null;
  dmarc_status: Generated<RecordStatus>;
  dmarc_found: string | null;
  dmarc_error: string | null;
  checked_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface LabelsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** Which channel's label (migration 0037); a name is unique per account and channel. */
  channel: Generated<'email' | 'sms'>;
  created_at: number;
  updated_at: number;
}

export interface ApiUsersTable {
  id: Generated<number>;
  account_id: number;
  /** Unique across the platform: clients authenticate with it. */
  name: string;
  email_type: 'trigger' | 'batch';
  /** SendCloud's cType: a test API_USER is capped at 50 mails a day. */
  c_type: Generated<'normal' | 'test'>;
  domain_id: number | null;
  label_id: number | null;
  open_tracking: Generated<number>;
  click_tracking: Generated<number>;
  unsubscribe_tracking: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** An API_KEY of an API_USER: only its SHA-256 is kept. A reset sets the old key's expires_at. */
export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  api_user_id: number;
  key_hash: string;
  /** The last four characters, to tell keys apart in the console. */
  key_hint: string;
  created_at: number;
  expires_at: number | null;
}

export interface EmailTemplatesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** Unique per account; what the send API names the template by. */
  invoke_name: string;
  template_type: 'trigger' | 'batch';
  editor: Generated<'richtext' | 'dragdrop'>;
  subject: string;
  summary: string | null;
  html: string;
  plain: string | null;
  /** The drag-and-drop editor's project (JSON), so the design can be edited again. */
  design: string | null;
  /** product-spec §4 and the issue: unsubmitted → reviewing → passed or rejected (with a reason). */
  status: Generated<'unsubmitted' | 'reviewing' | 'passed' | 'rejected'>;
  reject_reason: string | null;
  submitted_at: number | null;
  reviewed_at: number | null;
  reviewed_by: number | null;
  /** Last send with this template; a passed batch template unused for a month returns to unsubmitted. */
  last_used_at: number | null;
  created_at: number;
  updated_at: number;
}

/** The account's default trigger and batch API_USER (migration 0013). */
export interface ApiUserSendersTable {
  account_id: number;
  trigger_api_user_id: number | null;
  batch_api_user_id: number | null;
  updated_at: number;
}

/** A receive route of an account's domain (migration 0045). */
export interface MailRoutesTable {
  id: Generated<number>;
  account_id: number;
  domain: string;
  /** prefix or pattern */
  match: string;
  expression: string;
  /** url or email */
  target: string;
  url: string | null;
  email: string | null;
  /** The route's own webhook (channel `route`) that pushes to `url`. */
  webhook_id: number | null;
  created_at: number;
  updated_at: number;
}

/** A code sent to a mailbox a route will forward to (hashed; ten minutes). */
export interface MailRouteCodesTable {
  account_id: number;
  email: string;
  code_hash: string;
  expires_at: number;
  sent_at: number;
}
