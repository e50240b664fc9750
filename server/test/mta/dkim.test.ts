import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { relaxedBody, relaxedHeader, splitMessage, toCrlf } from '../../src/mta/dkim/canonicalize.ts';
import { dkimSign } from '../../src/mta/dkim/dkim-sign.ts';
import { makeKey, type TestKey, verify } from './dkim-helpers.ts';

const DOMAIN = 'example.com';
const SELECTOR = 'herald2026';
const NOW = new Date('2026-11-22T08:00:00Z');

let key: TestKey;
let records: Record<string, string>;

before(() => {
  key = makeKey();
  records = { [`${SELECTOR}._domainkey.${DOMAIN}`]: key.txt };
});

function sign(message: Buffer): Buffer {
  const header = dkimSign(
    message,
    { domain: DOMAIN, selector: SELECTOR, privateKey: key.privateKey },
    { now: NOW },
  );
  return Buffer.concat([Buffer.from(header, 'latin1'), message]);
}

function crlf(lines: string[]): Buffer {
  return Buffer.from(lines.join('\r\n'), 'utf8');
}

const BASIC = [
  'From: Herald <news@example.com>',
  'To: alice@example.org',
  'Subject: Hello',
  'Date: Sun, 22 Nov 2026 08:00:00 +0000',
  'Message-ID: <1@example.com>',
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Transfer-Encoding: 7bit',
  '',
  'Hello Alice.',
  '',
];

function hTag(signed: Buffer): string {
  const text = signed.toString('latin1');
  const field = text.slice(0, text.indexOf('\r\n', text.indexOf('b=')));
  const h = /h=([^;]+);/.exec(field.replace(/\r\n\t/g, ' '));
  return (h?.[1] ?? '').replace(/\s+/g, '');
}

describe('relaxed canonicalisation (RFC 6376 §3.4)', () => {
  it('canonicalises the RFC 6376 §3.4.5 example', () => {
    const { headers, body } = splitMessage(
      Buffer.from('A: X\r\nB : Y\t\r\n\tZ  \r\n\r\n C \r\nD \t E\r\n\r\n\r\n'),
    );
    assert.deepEqual(
      headers.map((h) => relaxedHeader(h.raw)),
      ['a:X', 'b:Y Z'],
    );
    assert.equal(relaxedBody(body), ' C\r\nD E\r\n');
  });

  it('reads bare LF like CRLF', () => {
    const lf = splitMessage(Buffer.from('Subject: a\n b\n\nline \n\n'));
    assert.equal(relaxedHeader(lf.headers[0]?.raw ?? ''), 'subject:a b');
    assert.equal(relaxedBody(lf.body), 'line\r\n');
    assert.equal(toCrlf(Buffer.from('a\nb\r\nc\n')).toString(), 'a\r\nb\r\nc\r\n');
  });

  it('gives an empty body no line at all and a body without a final line break one', () => {
    assert.equal(relaxedBody(''), '');
    assert.equal(relaxedBody('\r\n\r\n \t \r\n'), '');
    assert.equal(relaxedBody('last line'), 'last line\r\n');
  });

  it('treats a message without a blank line as headers only', () => {
    const { headers, body } = splitMessage(Buffer.from('From: a@b.c\r\nSubject: x\r\n'));
    assert.deepEqual(
      headers.map((h) => h.name),
      ['From', 'Subject'],
    );
    assert.equal(body, '');
  });
});

describe('DKIM signing, checked by mailauth', () => {
  it('signs a plain message that verifies', async () => {
    const signed = sign(crlf(BASIC));
    assert.equal((await verify(signed, records)).result, 'pass');
    const text = signed.toString('latin1');
    assert.match(
      text.replace(/\r\n\t/g, ' '),
      /^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=example\.com; s=herald2026;/,
    );
    assert.match(text, /t=1795334400;/);
    for (const line of text.slice(0, text.indexOf('\r\nFrom:')).split('\r\n'))
      assert.ok(line.length <= 78, line);
  });

  it('signs the listed fields present, over-signs From and skips absent ones', async () => {
    const message = crlf([
      'Received: from somewhere',
      'From: news@example.com',
      'To: a@example.org',
      'To: b@example.org',
      'Cc: c@example.org',
      'Reply-To: support@example.com',
      'Subject: Weekly',
      'List-Unsubscribe: <https://example.com/u/1>, <mailto:u-1@example.com>',
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
      'Feedback-ID: 42:batch:herald',
      'X-Mailer: Herald',
      '',
      'body',
    ]);
    const signed = sign(message);
    assert.equal(
      hTag(signed),
      'from:from:to:to:cc:subject:reply-to:list-unsubscribe:list-unsubscribe-post:feedback-id',
    );
    assert.equal((await verify(signed, records)).result, 'pass');
  });

  it('signs repeated fields bottom-up, so a reordered pair of To fails', async () => {
    const message = crlf(['From: a@example.com', 'To: first@example.org', 'To: second@example.org', '', 'x']);
    const signed = sign(message);
    assert.equal((await verify(signed, records)).result, 'pass');
    const swapped = Buffer.from(
      signed
        .toString('latin1')
        .replace(
          'To: first@example.org\r\nTo: second@example.org',
          'To: second@example.org\r\nTo: first@example.org',
        ),
      'latin1',
    );
    assert.equal((await verify(swapped, records)).result, 'fail');
  });

  it('verifies folded headers, folded in another way in transit too', async () => {
    const message = crlf([
      'From: "A very long display name that goes on and on" <news@example.com>',
      'To: alice@example.org,',
      '\tbob@example.org,',
      '  carol@example.org',
      'Subject: =?UTF-8?B?5L2g5aW9?=',
      ' =?UTF-8?B?5LiW55WM?=',
      'Content-Type: multipart/alternative;',
      '\tboundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain',
      '',
      'hi',
      '--b1--',
      '',
    ]);
    const signed = sign(message);
    assert.equal((await verify(signed, records)).result, 'pass');
    const refolded = Buffer.from(
      signed
        .toString('latin1')
        .replace(
          'To: alice@example.org,\r\n\tbob@example.org,',
          'To:   alice@example.org,   bob@example.org,',
        ),
      'latin1',
    );
    assert.equal((await verify(refolded, records)).result, 'pass');
  });

  it('ignores trailing whitespace on header values and body lines, and trailing empty lines', async () => {
    const message = crlf([
      'From: news@example.com  ',
      'Subject:\tTrailing\t \t',
      'To : alice@example.org',
      '',
      'line with spaces   ',
      'tabs\t\there\t',
      '',
      '',
      '',
    ]);
    const signed = sign(message);
    assert.equal((await verify(signed, records)).result, 'pass');
    const reshaped = Buffer.from(
      signed.toString('latin1').replace('line with spaces   ', 'line  with spaces') + '\r\n\r\n',
      'latin1',
    );
    assert.equal((await verify(reshaped, records)).result, 'pass');
  });

  it('signs an empty body, with and without the blank line', async () => {
    const withBlank = sign(crlf(['From: news@example.com', 'Subject: empty', '', '']));
    assert.equal((await verify(withBlank, records)).result, 'pass');
    assert.match(withBlank.toString(), /bh=47DEQpj8HBSa\+\/TImW\+5JCeuQeRkm5NMpJWZG3hSuFU=/);
    // Without the blank line the body is empty too, so the signature is the same; mailauth
    // needs the blank line to find the end of the header, and the composer always writes it.
    const signer = { domain: DOMAIN, selector: SELECTOR, privateKey: key.privateKey };
    assert.equal(
      dkimSign(crlf(['From: news@example.com', 'Subject: empty', '']), signer, { now: NOW }),
      dkimSign(crlf(['From: news@example.com', 'Subject: empty', '', '']), signer, { now: NOW }),
    );
  });

  it('signs long lines and a long folded subject', async () => {
    const long = 'x'.repeat(990);
    const message = crlf([
      'From: news@example.com',
      `Subject: ${'word '.repeat(40).trim()}`,
      ` ${'more '.repeat(30).trim()}`,
      '',
      long,
      `${'y'.repeat(500)} ${'z'.repeat(480)}`,
      '',
    ]);
    const signed = sign(message);
    assert.equal((await verify(signed, records)).result, 'pass');
  });

  it('signs an 8bit UTF-8 body, encoded-word headers and raw UTF-8 header bytes', async () => {
    const message = crlf([
      'From: 通知 <news@example.com>',
      'Subject: =?UTF-8?B?5L2g5aW977yM5LiW55WMIPCfjI8=?=',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      '您好！这是一封测试邮件。  ',
      'Grüße aus Zürich — ünïcödé 🌏',
      '',
    ]);
    const signed = sign(message);
    assert.equal((await verify(signed, records)).result, 'pass');
  });

  it('keeps byte 0xA0 inside raw UTF-8 header text (only SP and HTAB are whitespace)', () => {
    // "你" is E4 BD A0. mailauth's header canonicalisation treats 0xA0 as whitespace (JS \s on
    // a binary string), so it cannot check raw UTF-8 subjects containing it; RFC 6376 WSP is SP
    // and HTAB only, which is what receivers such as OpenDKIM implement. Herald's composer sends
    // non-ASCII headers as encoded words anyway.
    const raw = Buffer.from('Subject:  你好 ', 'utf8').toString('latin1');
    assert.equal(Buffer.from(relaxedHeader(raw), 'latin1').toString('utf8'), 'subject:你好');
  });

  it('signs LF input the same as CRLF input; the CRLF form verifies', async () => {
    const lfMessage = Buffer.from(BASIC.join('\n'), 'utf8');
    const crlfMessage = crlf(BASIC);
    const signer = { domain: DOMAIN, selector: SELECTOR, privateKey: key.privateKey };
    const fromLf = dkimSign(lfMessage, signer, { now: NOW });
    assert.equal(fromLf, dkimSign(crlfMessage, signer, { now: NOW }));
    const sent = Buffer.concat([Buffer.from(fromLf), toCrlf(lfMessage)]);
    assert.equal((await verify(sent, records)).result, 'pass');
  });

  it('fails when the body is modified', async () => {
    const signed = sign(crlf(BASIC));
    const tampered = Buffer.from(signed.toString('latin1').replace('Hello Alice.', 'Hello Alice!'), 'latin1');
    const result = await verify(tampered, records);
    assert.notEqual(result.result, 'pass');
    assert.match(result.comment ?? '', /body hash/);
  });

  it('fails when the subject is modified', async () => {
    const signed = sign(crlf(BASIC));
    const tampered = Buffer.from(
      signed.toString('latin1').replace('Subject: Hello', 'Subject: Hullo'),
      'latin1',
    );
    assert.equal((await verify(tampered, records)).result, 'fail');
  });

  it('fails when a second From is added (From is over-signed)', async () => {
    const signed = sign(crlf(BASIC));
    const text = signed.toString('latin1');
    const at = text.indexOf('From: Herald');
    const added = Buffer.from(`${text.slice(0, at)}From: evil@attacker.test\r\n${text.slice(at)}`, 'latin1');
    assert.equal((await verify(added, records)).result, 'fail');
    const appended = Buffer.from(
      text.replace('\r\n\r\nHello', '\r\nFrom: evil@attacker.test\r\n\r\nHello'),
      'latin1',
    );
    assert.equal((await verify(appended, records)).result, 'fail');
  });

  it('fails against another key', async () => {
    const signed = sign(crlf(BASIC));
    const other = makeKey();
    const result = await verify(signed, { [`${SELECTOR}._domainkey.${DOMAIN}`]: other.txt });
    assert.equal(result.result, 'fail');
  });

  it('refuses a selector or domain that is not a DNS name (a configuration bug)', () => {
    assert.throws(
      () => dkimSign(crlf(BASIC), { domain: DOMAIN, selector: 'a; b=1', privateKey: key.privateKey }),
      TypeError,
    );
  });
});
