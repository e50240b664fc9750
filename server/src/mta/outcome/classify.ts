import type { DnsFailure } from '../mx.ts';
import type { FailureCategory } from './failure-category.ts';
import { BASIC_CODES, GENERIC_CODES, SPECIFIC_CODES, TEXT_PATTERNS } from './reply-patterns.ts';

/**
 * What happened to one delivery attempt, as data (STYLE principle 9): delivered, deferred (try
 * again), invalid (a permanent rejection while we delivered) or soft bounce (a rejection that
 * came back after the message was accepted, as a DSN, or a deferral that ran out of time).
 *
 * Both kinds of failure are sorted into one FailureCategory. The categories follow SendCloud's
 * Aurora sub-statuses, whose two series mirror each other by last digit: invalid 401–409 and
 * soft bounce 503, 505–509. Blacklist, unsubscribe and format errors have no soft-bounce twin
 * (501, 502 and 504 do not exist), because they are decided before or during sending.
 *
 *   category             invalid reason (product-spec §8)       soft-bounce class (§8)
 *   blacklist            in blacklist                 401       —
 *   unsubscribed         unsubscribed                 402       —
 *   server_unreachable   server unreachable           403       server unreachable     503
 *   format_error         address format error         404       address missing        506
 *   ip_domain_rejected   sender or recipient rejected 405       IP or domain rejected  505
 *   not_exist            address does not exist       406       address missing        506
 *   spam                 spam                         407       spam                   507
 *   rejected             sender or recipient rejected 408       rejected               508
 *   other                other                        409       other                  509
 *
 * Product-spec §8 has no "IP or domain rejected" invalid reason, so such a rejection reads as
 * "sender or recipient rejected" in the console while the API keeps Aurora's finer 405.
 */

export type { FailureCategory };

/** product-spec §8, "Email invalid reasons". */
export type InvalidReason =
  | 'blacklist'
  | 'unsubscribed'
  | 'server_unreachable'
  | 'format_error'
  | 'not_exist'
  | 'spam'
  | 'rejected'
  | 'other';

/** product-spec §8, "Soft bounce classes". */
export type SoftBounceClass =
  | 'server_unreachable'
  | 'ip_domain_rejected'
  | 'address_missing'
  | 'spam'
  | 'rejected'
  | 'other';

export type DeliveryOutcome =
  | { kind: 'delivered'; detail: string }
  | { kind: 'deferred'; category: FailureCategory; detail: string }
  | { kind: 'invalid'; reason: InvalidReason; subStatus: number; category: FailureCategory; detail: string }
  | {
      kind: 'soft_bounce';
      class: SoftBounceClass;
      subStatus: number;
      category: FailureCategory;
      detail: string;
    };

export interface SmtpReply {
  code: number;
  /** RFC 3463 `class.subject.detail`, when the server gave one. */
  enhanced: string | null;
  /** The words, without codes, lines joined by a space. */
  text: string;
}

/** A delivery that never got an SMTP answer: DNS (as mx.ts reports it) or the network. */
export type TransportFailure =
  | DnsFailure
  | { kind: 'network'; code?: string; message: string; host?: string | null };

const INVALID: Record<FailureCategory, [InvalidReason, number]> = {
  blacklist: ['blacklist', 401],
  unsubscribed: ['unsubscribed', 402],
  server_unreachable: ['server_unreachable', 403],
  format_error: ['format_error', 404],
  ip_domain_rejected: ['rejected', 405],
  not_exist: ['not_exist', 406],
  spam: ['spam', 407],
  rejected: ['rejected', 408],
  other: ['other', 409],
};

const SOFT: Record<FailureCategory, [SoftBounceClass, number]> = {
  blacklist: ['rejected', 508],
  unsubscribed: ['rejected', 508],
  server_unreachable: ['server_unreachable', 503],
  format_error: ['address_missing', 506],
  ip_domain_rejected: ['ip_domain_rejected', 505],
  not_exist: ['address_missing', 506],
  spam: ['spam', 507],
  rejected: ['rejected', 508],
  other: ['other', 509],
};

export function invalid(category: FailureCategory, detail: string): DeliveryOutcome {
  const [reason, subStatus] = INVALID[category];
  return { kind: 'invalid', reason, subStatus, category, detail };
}

export function softBounce(category: FailureCategory, detail: string): DeliveryOutcome {
  const [cls, subStatus] = SOFT[category];
  return { kind: 'soft_bounce', class: cls, subStatus, category, detail };
}

/** Reads `550-5.1.1 first line\r\n550 5.1.1 second line` (or a single line) into its parts. */
export function parseReply(raw: string): SmtpReply {
  const lines = raw.split(/\r?\n/).filter((line) => line.trim() !== '');
  const code = Number(/^\s*([2-5]\d\d)/.exec(lines[0] ?? '')?.[1] ?? 0);
  let enhanced: string | null = null;
  const words: string[] = [];
  for (const line of lines) {
    let rest = line.replace(/^\s*[2-5]\d\d[ -]?/, '');
    const found = /^\s*([245])\.(\d{1,3})\.(\d{1,3})\b/.exec(rest);
    if (found) {
      enhanced ??= `${found[1]}.${found[2]}.${found[3]}`;
      rest = rest.slice(found[0].length);
    }
    if (rest.trim()) words.push(rest.trim());
  }
  return { code, enhanced, text: words.join(' ') };
}

/** The category of a rejection: specific enhanced code, then the words, then generic codes. */
export function categorize(reply: SmtpReply): FailureCategory {
  const detail = reply.enhanced?.split('.').slice(1).join('.') ?? null;
  if (detail && SPECIFIC_CODES[detail]) return SPECIFIC_CODES[detail];
  const text = reply.text.toLowerCase();
  for (const [pattern, category] of TEXT_PATTERNS) if (pattern.test(text)) return category;
  if (detail && GENERIC_CODES[detail]) return GENERIC_CODES[detail];
  return BASIC_CODES[reply.code] ?? 'other';
}

/** An SMTP answer to RCPT TO or to the end of DATA. */
export function classifyReply(input: SmtpReply | string): DeliveryOutcome {
  const reply = typeof input === 'string' ? parseReply(input) : input;
  const detail = describe(reply);
  if (reply.code >= 200 && reply.code < 300) return { kind: 'delivered', detail };
  if (reply.code >= 500 && reply.code < 600) return invalid(categorize(reply), detail);
  // 4xx, or a garbled reply with no code: waiting may help.
  return { kind: 'deferred', category: categorize(reply), detail };
}

const PERMANENT_NETWORK = new Set(['ENOTFOUND', 'ENODATA', 'ENULLMX']);

/**
 * No SMTP answer. DNS says whether the domain can ever receive mail (null MX, NXDOMAIN, no
 * records: invalid, server unreachable); refused, reset or timed-out connections and failed TLS
 * handshakes are deferred, since servers come back.
 */
export function classifyTransportFailure(failure: TransportFailure): DeliveryOutcome {
  if (failure.kind === 'failed') {
    return failure.permanent
      ? invalid('server_unreachable', failure.reason)
      : { kind: 'deferred', category: 'server_unreachable', detail: failure.reason };
  }
  const where = failure.host ? ` (${failure.host})` : '';
  const detail = `${failure.code ? `${failure.code}: ` : ''}${failure.message}${where}`;
  if (failure.code && PERMANENT_NETWORK.has(failure.code)) return invalid('server_unreachable', detail);
  return { kind: 'deferred', category: 'server_unreachable', detail };
}

function describe(reply: SmtpReply): string {
  return [reply.code || null, reply.enhanced, reply.text].filter(Boolean).join(' ');
}
