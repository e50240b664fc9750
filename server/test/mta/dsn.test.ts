import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { type ParsedBounce, parseBounce } from '../../src/mta/outcome/dsn.ts';
import { decodeHeader, parseMime } from '../../src/mta/outcome/mime-walk.ts';
import { encodeVerp } from '../../src/mta/verp.ts';

/** The fixtures' VERP addresses were made with this secret and domain (recipient ids 4242–4248). */
const verp = { secret: 'fixture-secret', bounceDomain: 'bounce.herald.test' };

function fixture(name: string): Buffer {
  return fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name));
}

function bounce(name: string, envelopeTo: string[]): Extract<ParsedBounce, { kind: 'bounce' }> {
  const parsed = parseBounce(fixture(name), { envelopeTo, verp });
  assert.equal(parsed.kind, 'bounce');
  return parsed as Extract<ParsedBounce, { kind: 'bounce' }>;
}

describe('DSN parsing', () => {
  it('reads a Postfix report: unknown user, soft bounce "address missing"', () => {
    const parsed = bounce('dsn-postfix.eml', [encodeVerp(4242, verp)]);
    assert.equal(parsed.format, 'dsn');
    assert.equal(parsed.recipientId, 4242);
    assert.equal(parsed.verpAddress, 'b-39u-6tfib6pb@bounce.herald.test');
    assert.equal(parsed.reportingMta, 'mail.example.org');
    assert.equal(parsed.originalMessageId, '<order-1001@shop.example.com>');
    assert.equal(parsed.recipients.length, 1);
    const [r] = parsed.recipients;
    assert.deepEqual(
      {
        finalRecipient: r?.finalRecipient,
        originalRecipient: r?.originalRecipient,
        action: r?.action,
        status: r?.status,
        remoteMta: r?.remoteMta,
        diagnosticCode: r?.diagnosticCode,
      },
      {
        finalRecipient: 'alice@example.org',
        originalRecipient: 'alice@example.org',
        action: 'failed',
        status: '5.1.1',
        remoteMta: 'mailstore1.example.org',
        diagnosticCode:
          '550 5.1.1 <alice@example.org>: Recipient address rejected: User unknown in virtual mailbox table',
      },
    );
    assert.deepEqual(r?.outcome, {
      kind: 'soft_bounce',
      class: 'address_missing',
      subStatus: 506,
      category: 'not_exist',
      detail:
        '550 5.1.1 <alice@example.org>: Recipient address rejected: User unknown in virtual mailbox table',
    });
  });

  it('reads an Exim report (Action before Final-Recipient, Status 5.0.0): spam', () => {
    const parsed = bounce('dsn-exim.eml', ['B-39V-7IEDRILT@bounce.herald.test']);
    assert.equal(parsed.recipientId, 4243);
    assert.equal(parsed.originalMessageId, '<deal-77@shop.example.com>');
    const [r] = parsed.recipients;
    assert.equal(r?.finalRecipient, 'bob@example.net');
    assert.equal(r?.status, '5.0.0');
    assert.equal(
      r?.outcome.kind === 'soft_bounce' && `${r.outcome.class} ${r.outcome.subStatus}`,
      'spam 507',
    );
  });

  it('reads a Gmail report with nested multiparts and a diagnostic without a reply code', () => {
    const parsed = bounce('dsn-gmail.eml', [encodeVerp(4244, verp)]);
    assert.equal(parsed.recipientId, 4244);
    assert.equal(parsed.reportingMta, 'googlemail.com');
    assert.equal(parsed.originalMessageId, '<welcome-5@shop.example.com>');
    const [r] = parsed.recipients;
    assert.equal(r?.finalRecipient, 'carol@workspace.example');
    assert.match(
      r?.diagnosticCode ?? '',
      /^The email account that you tried to reach does not exist\. Please try double-checking/,
    );
    assert.equal(r?.outcome.kind === 'soft_bounce' && r.outcome.class, 'address_missing');
  });

  it('reads a Gmail delay report as a deferral, not a bounce', () => {
    const parsed = bounce('dsn-gmail-delayed.eml', [encodeVerp(4248, verp)]);
    assert.equal(parsed.recipientId, 4248);
    const [r] = parsed.recipients;
    assert.equal(r?.action, 'delayed');
    assert.equal(r?.status, '4.4.1');
    assert.equal(r?.outcome.kind, 'deferred');
    assert.equal(r?.outcome.kind === 'deferred' && r.outcome.category, 'server_unreachable');
    assert.equal(parsed.originalMessageId, '<receipt-9@shop.example.com>');
  });

  it('reads a Microsoft NDR (base64 text parts, 5.1.10 RecipientNotFound)', () => {
    const parsed = bounce('dsn-microsoft.eml', [encodeVerp(4245, verp)]);
    assert.equal(parsed.recipientId, 4245);
    assert.equal(parsed.reportingMta, 'AM9PR04MB8123.eurprd04.prod.outlook.com');
    assert.equal(parsed.originalMessageId, '<invoice-311@shop.example.com>');
    const [r] = parsed.recipients;
    assert.equal(r?.finalRecipient, 'erin@contoso.example');
    assert.equal(r?.status, '5.1.10');
    assert.equal(
      r?.diagnosticCode,
      '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup',
    );
    assert.equal(
      r?.outcome.kind === 'soft_bounce' && `${r.outcome.class} ${r.outcome.subStatus}`,
      'address_missing 506',
    );
  });

  it('reads a qq-style plain-text bounce in GB18030', () => {
    const raw = fixture('dsn-qq-text.eml');
    assert.equal(
      decodeHeader(parseMime(raw).headers.get('subject')?.[0] ?? ''),
      '系统退信：您的邮件未能送达',
    );
    const parsed = bounce('dsn-qq-text.eml', [encodeVerp(4246, verp)]);
    assert.equal(parsed.format, 'text');
    assert.equal(parsed.recipientId, 4246);
    const [r] = parsed.recipients;
    assert.equal(r?.finalRecipient, 'frank@qq.example');
    assert.match(r?.diagnosticCode ?? '', /^550 Mailbox not found\./);
    assert.equal(r?.outcome.kind === 'soft_bounce' && r.outcome.class, 'address_missing');
  });

  it('reads a qmail text bounce: mailbox full', () => {
    const parsed = bounce('dsn-qmail.eml', [encodeVerp(4247, verp)]);
    assert.equal(parsed.format, 'text');
    const [r] = parsed.recipients;
    assert.equal(r?.finalRecipient, 'grace@oldhost.example');
    assert.equal(r?.status, '5.2.2');
    assert.equal(
      r?.outcome.kind === 'soft_bounce' && `${r.outcome.class} ${r.outcome.subStatus}`,
      'other 509',
    );
  });

  it('takes the reply code only where a bounce quotes one, not from numbers in sentences', () => {
    const text = [
      'From: MAILER-DAEMON@relay.example',
      'To: b-39u-6tfib6pb@bounce.herald.test',
      'Subject: Undelivered Mail',
      '',
      'We tried 450 times over 3 days to reach ivan@far.example.',
      'The remote server said: 554 5.7.1 Message rejected as spam',
      '',
    ].join('\r\n');
    const parsed = parseBounce(text, { envelopeTo: ['b-39u-6tfib6pb@bounce.herald.test'], verp });
    assert.equal(
      parsed.kind === 'bounce' && parsed.recipients[0]?.diagnosticCode,
      '554 5.7.1 Message rejected as spam',
    );
    assert.equal(parsed.kind === 'bounce' && parsed.recipients[0]?.finalRecipient, 'ivan@far.example');
  });

  it('finds the VERP address in the returned headers when the envelope lost it', () => {
    const parsed = bounce('dsn-postfix.eml', ['postmaster@bounce.herald.test']);
    assert.equal(parsed.recipientId, 4242);
    assert.equal(parsed.verpAddress, 'b-39u-6tfib6pb@bounce.herald.test');
  });

  it('attributes nothing to a forged VERP address', () => {
    const forged = fixture('dsn-postfix.eml')
      .toString('latin1')
      .replaceAll('b-39u-6tfib6pb', 'b-39u-aaaaaaaa');
    const parsed = parseBounce(forged, { envelopeTo: ['b-39u-aaaaaaaa@bounce.herald.test'], verp });
    assert.equal(parsed.kind, 'bounce');
    assert.equal(parsed.recipientId, null);
  });

  it('says when mail at a VERP address is not a bounce', () => {
    const parsed = parseBounce(fixture('dsn-auto-reply.eml'), { envelopeTo: [encodeVerp(4248, verp)], verp });
    assert.deepEqual(parsed, {
      kind: 'not_a_bounce',
      verpAddress: 'b-3a0-4qzqtuuz@bounce.herald.test',
      recipientId: 4248,
    });
  });

  it('reads a report with several recipients', () => {
    const report = [
      'From: MAILER-DAEMON@mx.example.org',
      'To: b-39u-6tfib6pb@bounce.herald.test',
      'Subject: Delivery status',
      'Content-Type: multipart/report; report-type=delivery-status; boundary=XX',
      '',
      '--XX',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.example.org',
      '',
      'Final-Recipient: rfc822; a@example.org',
      'Action: delivered',
      'Status: 2.0.0',
      '',
      'Final-Recipient: rfc822; b@example.org',
      'Action: failed',
      'Status: 5.7.1',
      'Diagnostic-Code: smtp; 550 5.7.1 Service unavailable; Client host [203.0.113.7] blocked using Spamhaus',
      '',
      '--XX--',
      '',
    ].join('\r\n');
    const parsed = parseBounce(report, { envelopeTo: ['b-39u-6tfib6pb@bounce.herald.test'], verp });
    assert.equal(parsed.kind, 'bounce');
    if (parsed.kind !== 'bounce') return;
    assert.deepEqual(
      parsed.recipients.map((r) => [
        r.finalRecipient,
        r.outcome.kind,
        r.outcome.kind === 'soft_bounce' ? r.outcome.class : null,
      ]),
      [
        ['a@example.org', 'delivered', null],
        ['b@example.org', 'soft_bounce', 'ip_domain_rejected'],
      ],
    );
  });
});
