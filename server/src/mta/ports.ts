import type { RelaySettings } from '../delivery-settings.ts';
import type { TrackingPlan } from '../lib/link-tracking.ts';
import type { DkimKeyRef } from './dkim/dkim-pool.ts';
import type { FailureCategory, InvalidReason } from './outcome/classify.ts';

/**
 * What the delivery pipeline asks of the rest of Herald, and the only file of mta/ the core may
 * import. The pipeline (claiming, rendering, signing, routing, SMTP, recording) is built against
 * these interfaces; the composition root (server/src/compose.ts) hands it the core's services:
 *  - suppression (core/suppression/): is this recipient on a list, and what to add to the lists
 *    when an outcome says so;
 *  - send policy (core/sender-configs/, core/queues/): hold a message (queue paused,
 *    do-not-disturb window), the headers, TLS rules and relay the account configured;
 *  - DKIM keys (core/domains/): the sending domain's current signing key;
 *  - tracking plans (core/tracking/): which messages get open and click tracking, and where.
 */

export type { DkimKeyRef, FailureCategory, InvalidReason };

/** Which list stopped a recipient; `intercept` is a custom interception rule. */
export type SuppressionList =
  | 'global_invalid'
  | 'bounce'
  | 'unsubscribe'
  | 'spam'
  | 'user_defined'
  | 'intercept';

export interface Suppressed {
  list: SuppressionList;
  /** product-spec §8 invalid reason the recipient is recorded with. */
  reason: InvalidReason;
  /** SendCloud sub-status (401 blacklist, 402 unsubscribed, ...). */
  subStatus: number;
  /** Human text for the send log, e.g. "in blacklist (address does not exist, until 2026-11-23 10:00)". */
  detail: string;
}

export type SendContext = {
  apiUserId: number | null;
  labelId: number | null;
  emailType: 'trigger' | 'batch';
};

export interface SuppressionCheck {
  /**
   * Null when the recipient may be sent to. Checked once per recipient right before rendering
   * (for a claimed batch, all at once as it is picked up), so a list change applies to mail still
   * queued.
   */
  check(accountId: number, recipient: string, context: SendContext): Promise<Suppressed | null>;
  /** check() for several recipients of one account, in order. */
  checkMany(
    accountId: number,
    recipients: { recipient: string; context: SendContext }[],
  ): Promise<(Suppressed | null)[]>;
  /**
   * Called by the pipeline after a final failure: an address that does not exist goes on the
   * global invalid list (blocked 2^n hours, at most 30 days); a bounce goes on the account's
   * bounce list; spam-complaint outcomes on its spam list (180 days).
   */
  recordFailure(
    accountId: number,
    recipient: string,
    failure: { category: FailureCategory; kind: 'invalid' | 'soft_bounce'; detail: string; at: number },
  ): Promise<void>;
}

/** What the message looks like to the policy rules. */
export interface PolicyMessage {
  accountId: number;
  apiUserId: number | null;
  apiUser: string | null;
  /** The sender's domain (from address). */
  senderDomain: string;
  labelId: number | null;
  emailType: 'trigger' | 'batch';
  recipientDomain: string;
}

export interface SendPolicy {
  /**
   * Until when the recipient's delivery waits, or null to go now: a suspended queue (with its
   * recover time, or far future when none) or a do-not-disturb window (batch mail only; released
   * at the window's end).
   */
  holdUntil(message: PolicyMessage, now: number): Promise<{ until: number; reason: string } | null>;
  /**
   * The account's fixed from / mail_from and AD mark, applied when the message is built. The
   * fixed from is set per receiving domain (or for all): pass the recipient's domain to get its
   * own prefix; without it only the all-domains prefix applies.
   */
  headerRules(
    accountId: number,
    recipientDomain?: string,
  ): Promise<{
    /** Replaces the From address's local part, e.g. "noreply" → noreply@<sender domain>. */
    fixedFromPrefix: string | null;
    /** The envelope sender's domain override (mail_from), when the account configured one. */
    mailFromDomain: string | null;
    /** Where the AD mark goes on batch mail, and its text. */
    adMark: { position: 'before' | 'after'; text: string } | null;
  }>;
  /** True when the account requires TLS towards this receiving domain (the TLS sender config). */
  requiresTls(accountId: number, recipientDomain: string): Promise<boolean>;
  /**
   * The account's own smart host (the relay sender config), switched on; null to route as the
   * deployment does. `key` changes whenever the account changes its relay, so connections opened
   * with the old settings are not reused.
   */
  relayFor(accountId: number): Promise<AccountRelay | null>;
}

/**
 * Dedicated IPs (the core's dedicated-ips area): the local addresses an account's mail from one
 * sending domain leaves from. Empty: the system's own address. Asked for every recipient, so an
 * implementation answers from memory (and forgets a changed account at once where it changed).
 */
export interface OutboundAddresses {
  addressesFor(accountId: number, senderDomain: string): Promise<string[]>;
}

export interface AccountRelay {
  key: string;
  settings: RelaySettings;
}

export interface DkimKeys {
  /**
   * The current key of the account's sending domain, or null when the account has no such
   * domain. Throws when the key exists but cannot be opened (the signer sends unsigned and logs).
   */
  keyFor(accountId: number, domain: string): Promise<DkimKeyRef | null>;
}

/** A claimed message as the tracking rules see it. */
export interface TrackedMessage {
  id: number;
  account_id: number;
  api_user_id: number | null;
  /** The message's X-SMTPAPI JSON, whose `filters` may switch tracking on or off. */
  xsmtpapi: string | null;
}

export interface TrackingPlans {
  /** The tracking plan of each message that has one (by message id); a batch at a time. */
  plansFor(messages: TrackedMessage[]): Promise<Map<number, TrackingPlan>>;
}
