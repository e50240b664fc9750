import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  classifyReply,
  classifyTransportFailure,
  type DeliveryOutcome,
  type FailureCategory,
  invalid,
  parseReply,
  softBounce,
} from '../../src/mta/outcome/classify.ts';
import { DEFAULT_RETRY_POLICY, expireDeferral, nextRetry } from '../../src/mta/outcome/retry-schedule.ts';

type Expected = ['delivered'] | ['deferred' | 'invalid', FailureCategory];

/** Replies as real servers send them (addresses and ids changed), with what Herald makes of them. */
const REPLIES: [string, Expected][] = [
  // Accepted
  ['250 2.0.0 OK  1732262400 d9443c01a7336-21f0b0a5b2esi123456.12 - gsmtp', ['delivered']],
  ['250 OK: queued as 4B8C71A2F3', ['delivered']],
  ['250 Ok: queued as', ['delivered']],
  ['250 2.6.0 <1@example.com> [InternalId=123] Queued mail for delivery', ['delivered']],
  ['251 2.1.5 User not local; will forward', ['delivered']],

  // Address does not exist
  [
    "550-5.1.1 The email account that you tried to reach does not exist. Please try\r\n550-5.1.1 double-checking the recipient's email address for typos or\r\n550 5.1.1 https://support.google.com/mail/?p=NoSuchUser 41be03b00d2f7-7fd0a1b2c3si.123 - gsmtp",
    ['invalid', 'not_exist'],
  ],
  [
    '550 Mailbox not found. http://service.mail.qq.com/cgi-bin/help?subtype=1&&id=20022&&no=1000728',
    ['invalid', 'not_exist'],
  ],
  ['550 User not found: nobody@163.com', ['invalid', 'not_exist']],
  ['550 Invalid User', ['invalid', 'not_exist']],
  [
    '550 5.5.0 Requested action not taken: mailbox unavailable (S2017062302). [AM4PEPF00027A6C.eurprd04.prod.outlook.com]',
    ['invalid', 'not_exist'],
  ],
  [
    '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient nobody@contoso.com not found by SMTP address lookup',
    ['invalid', 'not_exist'],
  ],
  [
    '550 5.4.1 Recipient address rejected: Access denied. AS(201806281) [DB5PEPF00014B8E.eurprd02.prod.outlook.com]',
    ['invalid', 'not_exist'],
  ],
  [
    '550 5.1.1 <nobody@example.org>: Recipient address rejected: User unknown in virtual mailbox table',
    ['invalid', 'not_exist'],
  ],
  [
    '550 5.1.1 <nobody@example.org>: Recipient address rejected: User unknown in local recipient table',
    ['invalid', 'not_exist'],
  ],
  [
    "554 delivery error: dd This user doesn't have a yahoo.com account (nobody@yahoo.com) [0] - mta1234.mail.gq1.yahoo.com",
    ['invalid', 'not_exist'],
  ],
  ['550 5.2.1 The email account that you tried to reach is disabled.', ['invalid', 'not_exist']],
  ['550 User suspended', ['invalid', 'not_exist']],
  ['551 User not local; please try <forward@example.net>', ['invalid', 'not_exist']],
  ['550 用户不存在', ['invalid', 'not_exist']],

  // Spam
  [
    '554 DT:SPM 163 smtp10,DsCowABHXvGV1EBnq0YsBg--.12345S2 1732262400, please see http://mail.163.com/help/help_spam_16.htm?ip=1.2.3.4',
    ['invalid', 'spam'],
  ],
  [
    '550-5.7.1 [203.0.113.7      12] Our system has detected that this message is\r\n550-5.7.1 likely unsolicited mail. To reduce the amount of spam sent to Gmail,\r\n550 5.7.1 this message has been blocked. https://support.google.com/mail/?p=UnsolicitedMessageError',
    ['invalid', 'spam'],
  ],
  [
    '550 Mail content denied. http://service.mail.qq.com/cgi-bin/help?subtype=1&&id=20022&&no=1000726',
    ['invalid', 'spam'],
  ],
  ['554 5.7.1 Message rejected as spam by Content Filtering.', ['invalid', 'spam']],
  [
    '550 5.7.350 Remote server returned message detected as spam -> 554 5.7.1 Spam detected',
    ['invalid', 'spam'],
  ],
  ['554 MI:SPB mx.163.com,Mtbt...', ['invalid', 'spam']],
  ['554 5.7.1 This message has been blocked because it contains a virus', ['invalid', 'spam']],

  // The sending IP or domain
  [
    '550 5.7.1 Service unavailable, Client host [203.0.113.7] blocked using Spamhaus. To request removal from this list see https://www.spamhaus.org/query/ip/203.0.113.7 AS(1450)',
    ['invalid', 'ip_domain_rejected'],
  ],
  [
    '550 5.7.606 Access denied, banned sending IP [203.0.113.7]. To request removal from this list please visit https://sender.office.com/',
    ['invalid', 'ip_domain_rejected'],
  ],
  [
    '550-5.7.26 This mail has been blocked because the sender is unauthenticated.\r\n550-5.7.26 Gmail requires all senders to authenticate with either SPF or DKIM.\r\n550 5.7.26 https://support.google.com/mail/answer/81126#authentication - gsmtp',
    ['invalid', 'ip_domain_rejected'],
  ],
  [
    '554 5.7.1 Service unavailable; Client host [203.0.113.7] blocked using bl.spamcop.net',
    ['invalid', 'ip_domain_rejected'],
  ],
  [
    "550 SC-001 (BAY004-MC1F15) Unfortunately, messages from 203.0.113.7 weren't sent. Please contact your Internet service provider since part of their network is on our block list.",
    ['invalid', 'ip_domain_rejected'],
  ],
  ['554 HL:IPB 163 mx14,QMCowEDpRkJ1o0Bn5lQAJQ--.4151S2 1732262400', ['invalid', 'ip_domain_rejected']],
  ['550 MI:SPF mx3.qq.com, SPF check failed', ['invalid', 'ip_domain_rejected']],
  [
    '553 5.7.1 Sender IP 203.0.113.7 is in the RBL of sbl.example, rejected',
    ['invalid', 'ip_domain_rejected'],
  ],
  [
    '550 Domain frequency limited. http://service.mail.qq.com/cgi-bin/help?subtype=1&&id=20022',
    ['invalid', 'ip_domain_rejected'],
  ],

  // The sender, or the recipient's rules
  ['554 DT:SUM envelope sender is not matched with header from', ['invalid', 'rejected']],
  ['550 User in blacklist', ['invalid', 'rejected']],
  ['553 5.7.1 <news@example.com>: Sender address rejected: not owned by user', ['invalid', 'rejected']],
  ['554 5.7.1 <alice@example.org>: Relay access denied', ['invalid', 'rejected']],
  ['550 5.7.1 Delivery not authorized, message refused', ['invalid', 'rejected']],

  // Format, domain, size, mailbox full
  [
    '553 5.1.3 The recipient address <alice@@example.org> is not a valid RFC-5321 address.',
    ['invalid', 'format_error'],
  ],
  ['501 5.1.3 Bad recipient address syntax', ['invalid', 'format_error']],
  ['501 Syntax error in parameters or arguments', ['invalid', 'format_error']],
  [
    '550 5.1.2 Host unknown (Name server: nonexistent.example: host not found)',
    ['invalid', 'server_unreachable'],
  ],
  ['552 5.2.2 The email account that you tried to reach is over quota.', ['invalid', 'other']],
  ['552 5.3.4 Message size exceeds fixed maximum message size', ['invalid', 'other']],
  ['554 Transaction failed', ['invalid', 'other']],
  ['550 Requested action not taken', ['invalid', 'other']],

  // Temporary
  [
    '421 Too many connections, please try later. http://service.mail.qq.com/cgi-bin/help?subtype=1&&id=20022',
    ['deferred', 'ip_domain_rejected'],
  ],
  ['421 HL:ICC 163 mx5,... too many connections from your IP', ['deferred', 'ip_domain_rejected']],
  [
    '421-4.7.28 [203.0.113.7      15] Gmail has detected an unusual rate of unsolicited mail originating\r\n421-4.7.28 from your DKIM domain. To protect our users from spam, mail sent from\r\n421 4.7.28 your domain has been temporarily rate limited.',
    ['deferred', 'ip_domain_rejected'],
  ],
  [
    '451 4.7.650 The mail server [203.0.113.7] has been temporarily rate limited due to IP reputation.',
    ['deferred', 'ip_domain_rejected'],
  ],
  [
    '450 4.2.1 The user you are trying to contact is receiving mail at a rate that prevents additional messages from being delivered.',
    ['deferred', 'other'],
  ],
  ['452 4.2.2 The email account that you tried to reach is over quota.', ['deferred', 'other']],
  [
    '450 4.7.1 <alice@example.org>: Recipient address rejected: Greylisted, see https://postgrey.schweikert.ch/help/example.org.html',
    ['deferred', 'other'],
  ],
  ['451 4.3.0 Temporary system failure. Please try again later.', ['deferred', 'other']],
  ['451 Requested action aborted: local error in processing', ['deferred', 'other']],
  ['421 4.3.2 Service not available, closing transmission channel', ['deferred', 'server_unreachable']],
  ['421 Service not available', ['deferred', 'server_unreachable']],
  ['451 DT:SPM 163 mx12, please try again', ['deferred', 'spam']],
];

function summary(outcome: DeliveryOutcome): Expected {
  return outcome.kind === 'delivered'
    ? ['delivered']
    : [outcome.kind as 'deferred' | 'invalid', outcome.category];
}

describe('classifying SMTP replies', () => {
  it('has a table of at least 40 real-world replies', () => {
    assert.ok(REPLIES.length >= 40, `${REPLIES.length} replies`);
  });

  for (const [raw, expected] of REPLIES) {
    it(`${raw.split('\r\n')[0]?.slice(0, 90)}`, () => {
      assert.deepEqual(summary(classifyReply(raw)), expected);
    });
  }

  it('parses multi-line replies and keeps the remote words as the detail', () => {
    const raw = REPLIES.find(([r]) => r.includes('NoSuchUser'))?.[0] ?? '';
    const reply = parseReply(raw);
    assert.equal(reply.code, 550);
    assert.equal(reply.enhanced, '5.1.1');
    assert.match(
      reply.text,
      /^The email account that you tried to reach does not exist\. Please try double-checking/,
    );
    const outcome = classifyReply(raw);
    assert.equal(outcome.detail, `550 5.1.1 ${reply.text}`);
  });

  it('gives an invalid its product-spec reason and Aurora sub-status', () => {
    assert.deepEqual(classifyReply('550 5.1.1 user unknown'), {
      kind: 'invalid',
      reason: 'not_exist',
      subStatus: 406,
      category: 'not_exist',
      detail: '550 5.1.1 user unknown',
    });
    const ip = classifyReply('550 5.7.606 Access denied, banned sending IP [203.0.113.7]');
    assert.equal(ip.kind === 'invalid' && `${ip.reason} ${ip.subStatus}`, 'rejected 405');
  });

  it('maps every category to the Aurora invalid and soft-bounce sub-statuses', () => {
    const table: [FailureCategory, number, string, number | null, string | null][] = [
      ['blacklist', 401, 'blacklist', null, null],
      ['unsubscribed', 402, 'unsubscribed', null, null],
      ['server_unreachable', 403, 'server_unreachable', 503, 'server_unreachable'],
      ['format_error', 404, 'format_error', 506, 'address_missing'],
      ['ip_domain_rejected', 405, 'rejected', 505, 'ip_domain_rejected'],
      ['not_exist', 406, 'not_exist', 506, 'address_missing'],
      ['spam', 407, 'spam', 507, 'spam'],
      ['rejected', 408, 'rejected', 508, 'rejected'],
      ['other', 409, 'other', 509, 'other'],
    ];
    for (const [category, invalidCode, reason, softCode, cls] of table) {
      const inv = invalid(category, 'x');
      assert.equal(inv.kind === 'invalid' && `${inv.reason} ${inv.subStatus}`, `${reason} ${invalidCode}`);
      if (softCode === null) continue;
      const soft = softBounce(category, 'x');
      assert.equal(soft.kind === 'soft_bounce' && `${soft.class} ${soft.subStatus}`, `${cls} ${softCode}`);
    }
  });
});

describe('classifying failures without an SMTP answer', () => {
  const cases: [Parameters<typeof classifyTransportFailure>[0], string][] = [
    [{ kind: 'network', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 192.0.2.1:25' }, 'deferred'],
    [
      { kind: 'network', code: 'ETIMEDOUT', message: 'Connection timeout', host: 'mx.example.org' },
      'deferred',
    ],
    [{ kind: 'network', code: 'ECONNRESET', message: 'socket hang up' }, 'deferred'],
    [{ kind: 'network', code: 'EHOSTUNREACH', message: 'connect EHOSTUNREACH 192.0.2.1:25' }, 'deferred'],
    [{ kind: 'network', code: 'ERR_SSL_WRONG_VERSION_NUMBER', message: 'wrong version number' }, 'deferred'],
    [{ kind: 'network', code: 'CERT_HAS_EXPIRED', message: 'certificate has expired' }, 'deferred'],
    [
      {
        kind: 'network',
        code: 'ETLS',
        message: 'STARTTLS required by the TLS sender config but not offered',
      },
      'deferred',
    ],
    [{ kind: 'network', code: 'ENOTFOUND', message: 'queryMx ENOTFOUND nonexistent.example' }, 'invalid'],
    [{ kind: 'failed', permanent: true, reason: 'example.org: domain accepts no mail (null MX)' }, 'invalid'],
    [
      { kind: 'failed', permanent: true, reason: 'nonexistent.example: no such domain (NXDOMAIN)' },
      'invalid',
    ],
    [{ kind: 'failed', permanent: false, reason: 'example.org: MX look-up failed: SERVFAIL' }, 'deferred'],
  ];
  for (const [failure, kind] of cases) {
    it(`${failure.kind === 'network' ? failure.code : failure.reason} is ${kind}, server unreachable`, () => {
      const outcome = classifyTransportFailure(failure);
      assert.equal(outcome.kind, kind);
      assert.equal(outcome.kind !== 'delivered' && outcome.category, 'server_unreachable');
      if (outcome.kind === 'invalid') assert.equal(outcome.subStatus, 403);
    });
  }

  it('keeps the host and error in the detail', () => {
    const outcome = classifyTransportFailure({
      kind: 'network',
      code: 'ETIMEDOUT',
      message: 'Connection timeout',
      host: 'mx.example.org',
    });
    assert.equal(outcome.detail, 'ETIMEDOUT: Connection timeout (mx.example.org)');
  });
});

describe('retry schedule', () => {
  const queuedAt = new Date('2026-11-22T00:00:00Z');
  const minutes = (ms: number) => ms / 60_000;

  it('backs off 1, 2, 4 … 64 minutes, then every 2 hours', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9, 20].map((attempt) => {
      const decision = nextRetry(attempt, queuedAt, queuedAt);
      assert.equal(decision.kind, 'retry');
      return decision.kind === 'retry' ? minutes(decision.delayMs) : 0;
    });
    assert.deepEqual(delays, [1, 2, 4, 8, 16, 32, 64, 120, 120, 120]);
  });

  it('walks a 72-hour lifetime, with the last try at its end, then expires', () => {
    let now = queuedAt;
    let attempts = 1;
    const expires = queuedAt.getTime() + DEFAULT_RETRY_POLICY.lifetimeMs;
    for (;;) {
      const decision = nextRetry(attempts, queuedAt, now);
      if (decision.kind === 'expired') break;
      assert.ok(decision.at.getTime() <= expires);
      now = decision.at;
      attempts++;
    }
    assert.equal(now.getTime(), expires);
    assert.equal(attempts, 43); // 1 + 7 growing delays + 34 two-hour ones + the last at 72 h
  });

  it('honours a configured lifetime and cap', () => {
    const policy = { firstDelayMs: 30_000, maxDelayMs: 3_600_000, lifetimeMs: 4 * 3_600_000 };
    const late = nextRetry(12, queuedAt, new Date(queuedAt.getTime() + 3.5 * 3_600_000), policy);
    assert.deepEqual(late, {
      kind: 'retry',
      at: new Date(queuedAt.getTime() + 4 * 3_600_000),
      delayMs: 1_800_000,
    });
    assert.deepEqual(nextRetry(13, queuedAt, new Date(queuedAt.getTime() + 4 * 3_600_000), policy), {
      kind: 'expired',
    });
  });

  it('turns an expired deferral into a soft bounce of the same category', () => {
    const deferred = classifyReply(
      '421 4.7.0 [203.0.113.7] Our system has detected an unusual rate of unsolicited mail originating from your IP address.',
    );
    assert.equal(deferred.kind, 'deferred');
    if (deferred.kind !== 'deferred') return;
    const bounce = expireDeferral(deferred);
    assert.equal(
      bounce.kind === 'soft_bounce' && `${bounce.class} ${bounce.subStatus}`,
      'ip_domain_rejected 505',
    );
    assert.match(bounce.detail, /^gave up retrying: 421 4\.7\.0/);
    const unreachable = expireDeferral(
      classifyTransportFailure({ kind: 'network', code: 'ECONNREFUSED', message: 'refused' }) as {
        category: FailureCategory;
        detail: string;
      },
    );
    assert.equal(unreachable.kind === 'soft_bounce' && unreachable.subStatus, 503);
  });
});
