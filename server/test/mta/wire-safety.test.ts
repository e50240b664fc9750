import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it, type TestContext } from 'node:test';
import { type SmtpMx, startSmtpMx } from '@herald/test-peers';
import nodemailer from 'nodemailer';
import type { SMTPServer } from 'smtp-server';
import { closeSmtp, listenSmtp } from '../../src/smtp/listen.ts';
import { createSubmissionServer } from '../../src/smtp/submission-server.ts';
import { decodedBody } from '../helpers/mail.ts';
import { verify } from './dkim-helpers.ts';
import { dkimpyAvailable, dkimpyVerify } from './dkimpy.ts';
import { type PipelineHarness, startPipeline } from './pipeline-harness.ts';

/**
 * What leaves Herald is standards-clean on the wire, whatever was submitted: 8-bit bodies go
 * with BODY=8BITMIME to an MX that offers 8BITMIME and re-encoded (then signed) to one that does
 * not; no line over 998 octets; headers 7-bit; a Received field from the submission server and
 * one from the relay. `dest.test`'s MX (127.0.0.1) offers 8BITMIME, `seven.test`'s (127.0.0.2,
 * same port) does not. Signatures are checked by two independent verifiers (mailauth, dkimpy).
 */
const LONG = 'y'.repeat(7000);
const HIGH_BYTE = (bytes: Buffer) => bytes.findIndex((b) => b >= 0x80);
const longestLine = (bytes: Buffer) =>
  Math.max(
    ...bytes
      .toString('latin1')
      .split('\r\n')
      .map((line) => line.length),
  );

/**
 * dkimpy's verdict on the bytes. Where dkimpy (python3-dkim) is not installed the check is
 * skipped and the test says so; on CI, which installs it (.ci/run), its absence is a failure.
 */
function dkimpyPasses(t: TestContext, bytes: Buffer, records: Record<string, string>): void {
  if (!dkimpyAvailable) {
    assert.ok(!process.env.CI, 'dkimpy (python3-dkim) is missing on CI, where .ci/run installs it');
    t.diagnostic('dkimpy (python3-dkim) is not installed: the second DKIM verifier was skipped');
    return;
  }
  assert.equal(dkimpyVerify(bytes, records), 'pass');
}

describe('standards-clean mail on the wire', () => {
  let h: PipelineHarness;
  let seven: SmtpMx;
  let submission: SMTPServer;
  let port: number;

  before(async () => {
    h = await startPipeline();
    seven = await startSmtpMx({
      host: '127.0.0.2',
      port: h.mx.port,
      eightBitMime: false,
      name: 'mx.seven.test',
    });
    h.dns.set('seven.test', 'MX', [{ priority: 10, exchange: 'mx.seven.test' }]);
    h.dns.set('mx.seven.test', 'A', ['127.0.0.2']);
    for (const [name, txt] of Object.entries(h.sender.dkimTxt)) h.dns.set(name, 'TXT', [txt]);
    submission = createSubmissionServer(h.t.core);
    port = (await listenSmtp(submission, 0, '127.0.0.1')).port;
  });
  after(async () => {
    if (submission) await closeSmtp(submission);
    await seven?.close();
    await h?.close();
  });
  beforeEach(() => {
    h.mx.clear();
    seven.clear();
  });

  /** Submits raw bytes over SMTP AUTH, as a mail program that writes 8-bit mail would. */
  async function submit(raw: string, to: string[]): Promise<void> {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port,
      secure: false,
      ignoreTLS: true,
      auth: { user: h.sender.apiUser, pass: h.sender.apiKey },
    } as never);
    try {
      await transport.sendMail({
        envelope: { from: `news@${h.sender.domain}`, to },
        raw: Buffer.from(raw.replace(/\r?\n/g, '\r\n'), 'utf8'),
      });
    } finally {
      transport.close();
    }
  }

  const eightBitMessage = (domain: string, to: string) =>
    [
      `From: "新闻" <news@${domain}>`,
      `To: ${to}`,
      'Subject: 八位 mail',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      '你好，世界',
      '--b',
      'Content-Type: text/html; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      `<p>${LONG}</p>`,
      '--b--',
      '',
    ].join('\n');

  it('re-encodes 8-bit SMTP mail for an MX without 8BITMIME, signed after re-encoding', async (t) => {
    await submit(eightBitMessage(h.sender.domain, 'ann@seven.test'), ['ann@seven.test']);
    const [mail] = await seven.waitForMessages(1, 15_000);
    assert.ok(mail);
    assert.equal(HIGH_BYTE(mail.bytes), -1, 'no byte of the DATA is 0x80 or above');
    assert.ok(longestLine(mail.bytes) <= 998, `longest line ${longestLine(mail.bytes)}`);
    assert.notEqual(mail.mailParams.BODY, '8BITMIME');
    assert.equal(mail.subject, '八位 mail');
    assert.match(mail.headers.from?.[0] ?? '', /^=\?UTF-8\?B\?[^?]+\?= <news@/);
    const text = decodedBody(mail.raw);
    assert.match(text, /你好，世界/);
    assert.ok(text.includes(`<p>${LONG}</p>`), 'the long line survives re-encoding');
    const mailauth = await verify(mail.bytes, h.sender.dkimTxt);
    assert.equal(mailauth.result, 'pass', mailauth.comment);
    dkimpyPasses(t, mail.bytes, h.sender.dkimTxt);
  });

  it('sends 8-bit SMTP mail with BODY=8BITMIME to an MX that offers it, long lines still re-encoded', async (t) => {
    await submit(eightBitMessage(h.sender.domain, 'bob@dest.test'), ['bob@dest.test']);
    const [mail] = await h.mx.waitForMessages(1, 15_000);
    assert.ok(mail);
    assert.equal(mail.mailParams.BODY, '8BITMIME');
    assert.ok(
      mail.bytes.includes(Buffer.from('你好，世界', 'utf8')),
      'the 8-bit part goes as it was submitted',
    );
    assert.ok(longestLine(mail.bytes) <= 998, `longest line ${longestLine(mail.bytes)}`);
    assert.ok(decodedBody(mail.raw).includes(`<p>${LONG}</p>`));
    const head = mail.bytes.subarray(0, mail.bytes.indexOf('\r\n\r\n'));
    assert.equal(HIGH_BYTE(head), -1, 'headers stay 7-bit (the MX does not offer SMTPUTF8 to Herald)');
    const mailauth = await verify(mail.bytes, h.sender.dkimTxt);
    assert.equal(mailauth.result, 'pass', mailauth.comment);
    dkimpyPasses(t, mail.bytes, h.sender.dkimTxt);
  });

  it('one message to both kinds of MX: each gets what it can take, both signatures verify', async (t) => {
    await submit(eightBitMessage(h.sender.domain, 'carl@dest.test, dora@seven.test'), [
      'carl@dest.test',
      'dora@seven.test',
    ]);
    const [eight] = await h.mx.waitForMessages(1, 15_000);
    const [sevenBit] = await seven.waitForMessages(1, 15_000);
    assert.equal(eight?.mailParams.BODY, '8BITMIME');
    assert.equal(HIGH_BYTE(sevenBit?.bytes ?? Buffer.alloc(0)), -1);
    for (const mail of [eight, sevenBit]) {
      assert.ok(mail);
      assert.equal((await verify(mail.bytes, h.sender.dkimTxt)).result, 'pass');
      dkimpyPasses(t, mail.bytes, h.sender.dkimTxt);
    }
  });

  it('stamps Received at submission (signed part) and at relay (on top, unsigned)', async () => {
    await submit(eightBitMessage(h.sender.domain, 'erin@dest.test'), ['erin@dest.test']);
    const [mail] = await h.mx.waitForMessages(1, 15_000);
    assert.ok(mail);
    const head = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n'));
    const names = head
      .split('\r\n')
      .filter((line) => /^[^ \t]/.test(line))
      .map((line) => line.slice(0, line.indexOf(':')).toLowerCase());
    assert.deepEqual(
      names.slice(0, 2),
      ['received', 'dkim-signature'],
      'the relay stamp is on top of the signature',
    );
    assert.equal(names.filter((n) => n === 'received').length, 2);
    assert.ok(names.lastIndexOf('received') > 1, 'the submission stamp is inside the signed message');
    const [relay, submitted] = mail.headers.received ?? [];
    assert.match(
      relay ?? '',
      /^by herald\.test \(Herald\) id \S+\s+for <erin@dest\.test>; \w{3}, \d+ \w{3} \d{4} [\d:]{8} \+0000$/,
    );
    assert.match(
      submitted ?? '',
      /^from \S+ \(\[127\.0\.0\.1\]\)\s+by herald\.test \(Herald\) with ESMTPA id \S+;\s+\w{3}, \d+ \w{3} \d{4} [\d:]{8} \+0000$/,
    );
    const signature = mail.headers['dkim-signature']?.[0] ?? '';
    assert.doesNotMatch(signature.replace(/\s+/g, ''), /h=[^;]*received/i, 'Received is not in h=');
  });

  it('refuses at submission, with 553 5.6.7, a header address that cannot be written in 7 bits', async () => {
    const raw = [`From: news@${h.sender.domain}`, 'To: 用户@例子.中国', 'Subject: x', '', 'body', ''].join(
      '\n',
    );
    await assert.rejects(
      submit(raw, ['gus@dest.test']),
      (error: { responseCode?: number; response?: string }) => {
        assert.equal(error.responseCode, 553);
        assert.match(error.response ?? '', /5\.6\.7/);
        return true;
      },
    );
  });

  it('never lets a 7,000-octet line of HTTP mail leave Herald', async () => {
    await h.send({ to: 'fay@seven.test', subject: 'Long line', html: `<p>${LONG}</p>` });
    const [mail] = await seven.waitForMessages(1, 15_000);
    assert.ok(mail);
    assert.ok(longestLine(mail.bytes) <= 998);
    assert.equal(HIGH_BYTE(mail.bytes), -1);
    assert.ok(decodedBody(mail.raw).includes(`<p>${LONG}</p>`));
    assert.match(mail.headers.received?.[0] ?? '', /^by herald\.test \(Herald\) id /);
    assert.equal((await verify(mail.bytes, h.sender.dkimTxt)).result, 'pass');
  });
});
