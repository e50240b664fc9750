import type { FailureCategory } from './failure-category.ts';

/**
 * What a remote rejection is about, read from its enhanced status code (RFC 3463, RFC 7372,
 * RFC 7505) and, where the code is generic or missing, from its words.
 *
 * A code in SPECIFIC_CODES decides alone. Codes in GENERIC_CODES (x.7.1 "not authorised" is what
 * Gmail, Outlook and Postfix all use for spam, blocklisted IPs and unknown users alike) only
 * decide when no text pattern matches. Patterns are tried in order; the first match wins, so the
 * narrower readings (greylisting, spam, IP reputation, sender) come before the broad ones.
 */

/** Keyed by `subject.detail` (the class digit comes from the reply). */
export const SPECIFIC_CODES: Record<string, FailureCategory> = {
  '1.1': 'not_exist', // bad destination mailbox address
  '1.2': 'server_unreachable', // bad destination system address
  '1.3': 'format_error', // bad destination mailbox address syntax
  '1.6': 'not_exist', // destination mailbox has moved
  '2.2': 'other', // mailbox full
  '3.4': 'other', // message too big
  '4.4': 'server_unreachable', // unable to route
  '4.7': 'server_unreachable', // delivery time expired
  '7.20': 'ip_domain_rejected', // no passing DKIM signature (RFC 7372)
  '7.21': 'ip_domain_rejected',
  '7.22': 'ip_domain_rejected',
  '7.23': 'ip_domain_rejected', // SPF validation failed
  '7.24': 'ip_domain_rejected',
  '7.25': 'ip_domain_rejected', // reverse DNS validation failed
  '7.26': 'ip_domain_rejected', // multiple authentication checks failed (Gmail: DMARC, unauthenticated)
  '7.27': 'rejected', // sender address has null MX
};

/** Used when the reply's words say nothing the patterns recognise. */
export const GENERIC_CODES: Record<string, FailureCategory> = {
  '0.0': 'other',
  '1.0': 'rejected',
  '1.7': 'rejected', // bad sender's mailbox address syntax
  '1.8': 'rejected', // bad sender's system address
  '1.10': 'server_unreachable', // null MX (RFC 7505); Exchange also uses it for RecipientNotFound
  '2.0': 'other',
  '2.1': 'not_exist', // mailbox disabled (Gmail also uses 4.2.1 for a recipient receiving too fast)
  '3.0': 'other',
  '4.0': 'server_unreachable',
  '4.1': 'server_unreachable', // no answer from host
  '4.2': 'server_unreachable', // bad connection
  '5.0': 'other',
  '6.0': 'other',
  '7.0': 'rejected',
  '7.1': 'rejected', // delivery not authorised, message refused
};

/** Basic reply code → category, when neither an enhanced code nor the words decide. */
export const BASIC_CODES: Record<number, FailureCategory> = {
  421: 'server_unreachable', // service not available, closing channel
  501: 'format_error', // syntax error in parameters (the address we gave)
  551: 'not_exist', // user not local
  553: 'format_error', // mailbox name not allowed
};

export const TEXT_PATTERNS: [RegExp, FailureCategory][] = [
  // Timing, not the message or the address: greylisting, "try again", a recipient receiving too fast.
  [/greylist|graylist|try again later|please retry|temporarily deferred|receiving mail at a rate/, 'other'],
  // Reputation of the sending IP or DKIM domain, even when the words mention spam.
  [
    /unusual rate of unsolicited|originating from your (ip|dkim|domain)|rate limited|banned sending ip/,
    'ip_domain_rejected',
  ],
  // Content judged as spam (NetEase DT:SPM and MI:SPB, QQ "content denied", Gmail "unsolicited mail").
  [
    /dt:spm|mi:spb|\bspam\b|junk mail|likely unsolicited|message .*unsolicited|content (is )?(rejected|refused|denied|filter)|rejected by content|virus|phishing|bulk mail/,
    'spam',
  ],
  // The sender, or the recipient's own rules about senders.
  [
    /sender (address )?(rejected|denied|blocked|not allowed|verify failed)|mail from .*rejected|dt:sum|mi:imf|relay(ing)? (access )?denied|not permitted to relay|user in blacklist|recipient's blacklist|sender is rejected|local user only|authentication (is )?required/,
    'rejected',
  ],
  // The sending IP or domain: blocklists, reputation, authentication, throttling.
  [
    /spamhaus|spamcop|barracuda|sorbs|\brbl\b|dnsbl|block ?list|black ?list|\bip\b.*\b(block|blocked|reject|rejected|listed|banned|reputation|not allowed|limit|limited)\b|your ip|from this ip|banned sending ip|client host .*(blocked|rejected)|reputation|dt:rbl|hl:(ipb|ihu|rep|mep|icc|ifc)|mi:(spf|dma)|\bspf\b|\bdmarc\b|\bdkim\b|reverse dns|\bptr\b|rdns|unauthenticated|verify fail|rate limit|rate-limit|too many (connections|messages|mails)|sending quota|frequency|sent too many|connection limit|exceeded the rate/,
    'ip_domain_rejected',
  ],
  // The recipient's domain has no working mail server.
  [
    /domain (does not exist|not found|name not found)|host (not found|unknown)|no mx\b|null mx|name service error/,
    'server_unreachable',
  ],
  // The recipient address does not exist (NetEase "User not found", QQ "Mailbox not found").
  [
    /user (unknown|not found|doesn'?t exist|does not exist|not exist)|doesn'?t have an? [\w.-]+ account|unknown (user|recipient)|no such (user|mailbox|recipient|address)|mailbox (not found|unavailable|does not exist|doesn'?t exist|not exist|is disabled|disabled)|recipient (not found|unknown|does not exist|invalid)|recipientnotfound|nosuchuser|invalid (recipient|user|mailbox)|recipient address rejected|address (does not exist|not found|unknown)|account (does not exist|is disabled|has been disabled|disabled|not exist)|user suspended|addressee unknown|not our customer|does not exist|用户不存在|收件人不存在|帐号不存在|账号不存在/,
    'not_exist',
  ],
  [/syntax|malformed|invalid address|bad address|address format|illegal address/, 'format_error'],
  [
    /mailbox (is )?full|over ?quota|quota exceeded|exceeded storage|insufficient storage|mailbox size limit/,
    'other',
  ],
  [/connection (refused|timed out|reset)|unreachable|timed out/, 'server_unreachable'],
];
