import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createTransport } from 'nodemailer';
import { type SmtpMx, startSmtpMx } from '../src/smtp-mx.ts';
import { testTls } from '../src/tls-fixture.ts';

describe('smtp-mx', () => {
  let mx: SmtpMx;

  before(async () => {
    mx = await startSmtpMx({ banner: 'Herald test MX' });
  });
  after(() => mx.close());
  beforeEach(() => mx.clear());

  const transport = (extra: Record<string, unknown> = {}) =>
    createTransport({ host: mx.host, port: mx.port, secure: false, ignoreTLS: true, ...extra });

  it('accepts plain mail and records envelope, headers and subject', async () => {
    const info = await transport({ name: 'sender.herald.test' }).sendMail({
      from: 'Alice <alice@herald.test>',
      to: ['bob@example.test', 'carol@example.test'],
      subject: 'Grüße aus Herald',
      text: 'hello',
      headers: { 'X-Herald-Id': 'abc123' },
    });
    assert.deepEqual(info.accepted, ['bob@example.test', 'carol@example.test']);
    assert.equal(mx.messages.length, 1);
    const msg = mx.messages[0]!;
    assert.equal(msg.mailFrom, 'alice@herald.test');
    assert.deepEqual(msg.rcptTo, ['bob@example.test', 'carol@example.test']);
    assert.equal(msg.subject, 'Grüße aus Herald');
    assert.deepEqual(msg.headers['x-herald-id'], ['abc123']);
    assert.match(msg.raw, /\r\n\r\nhello/);
    assert.equal(msg.heloName, 'sender.herald.test');
    assert.equal(msg.secure, false);
    assert.equal(msg.remoteAddress, '127.0.0.1');
    assert.ok(msg.receivedAt instanceof Date);
    assert.equal(mx.connections, 1);
  });

  it('upgrades with STARTTLS when the client requires TLS', async () => {
    await transport({ ignoreTLS: false, requireTLS: true, tls: { rejectUnauthorized: false } }).sendMail({
      from: 'a@herald.test',
      to: 'b@example.test',
      text: 'secret',
    });
    assert.equal(mx.messages[0]?.secure, true);
  });

  it('presents the fixture certificate, verifiable with it as the CA', async () => {
    await transport({
      ignoreTLS: false,
      requireTLS: true,
      tls: { ca: testTls().cert, servername: 'mx.test' },
    }).sendMail({
      from: 'a@herald.test',
      to: 'b@example.test',
      text: 'verified',
    });
    assert.equal(mx.messages[0]?.secure, true);
  });

  it('answers a scripted 550 at RCPT TO, visible as a rejected recipient', async () => {
    mx.script('Nobody@Example.test', { rcpt: { code: 550, message: '5.1.1 user unknown' } });
    const info = await transport().sendMail({
      from: 'a@herald.test',
      to: ['nobody@example.test', 'ok@example.test'],
      text: 'x',
    });
    assert.deepEqual(info.rejected, ['nobody@example.test']);
    assert.deepEqual(info.accepted, ['ok@example.test']);
    const errors = (info as { rejectedErrors?: { response?: string }[] }).rejectedErrors ?? [];
    assert.match(errors[0]?.response ?? '', /^550 5\.1\.1 user unknown/);
    assert.deepEqual(mx.messages[0]?.rcptTo, ['ok@example.test']);
  });

  it('answers scripted temporary failures at DATA and does not record the message', async () => {
    mx.scriptDefault({ data: { code: 451, message: '4.3.0 try later' } });
    await assert.rejects(
      transport().sendMail({ from: 'a@herald.test', to: 'b@example.test', text: 'x' }),
      (err: { responseCode?: number; response?: string }) =>
        err.responseCode === 451 && /4\.3\.0 try later/.test(err.response ?? ''),
    );
    assert.equal(mx.messages.length, 0);
    mx.scriptDefault(null);
    await transport().sendMail({ from: 'a@herald.test', to: 'b@example.test', text: 'x' });
    assert.equal(mx.messages.length, 1);
  });

  it('drops the connection at RCPT TO and at DATA', async () => {
    mx.script('drop-rcpt@example.test', { drop: 'rcpt' });
    mx.script('drop-data@example.test', { drop: 'data' });
    for (const to of ['drop-rcpt@example.test', 'drop-data@example.test']) {
      await assert.rejects(transport().sendMail({ from: 'a@herald.test', to, text: 'x' }));
    }
    assert.equal(mx.messages.length, 0);
    assert.equal(mx.connections, 2);
    mx.unscript('drop-rcpt@example.test');
    await transport().sendMail({ from: 'a@herald.test', to: 'drop-rcpt@example.test', text: 'x' });
    assert.equal(mx.messages.length, 1);
  });

  it('delays the RCPT TO reply', async () => {
    mx.script('slow@example.test', { delayMs: 300 });
    const started = Date.now();
    await transport().sendMail({ from: 'a@herald.test', to: 'slow@example.test', text: 'x' });
    assert.ok(Date.now() - started >= 280);
  });

  it('rejects messages over the size limit', async () => {
    const small = await startSmtpMx({ size: 1000, starttls: false });
    try {
      await assert.rejects(
        createTransport({ host: small.host, port: small.port }).sendMail({
          from: 'a@herald.test',
          to: 'b@example.test',
          text: 'x'.repeat(5000),
        }),
        (err: { responseCode?: number }) => err.responseCode === 552,
      );
      assert.equal(small.messages.length, 0);
    } finally {
      await small.close();
    }
  });

  it('counts one connection for a pooled client and waits for messages', async () => {
    const pool = transport({ pool: true, maxConnections: 1 });
    const waiting = mx.waitForMessages(3, 5000);
    await Promise.all(
      [1, 2, 3].map((n) => pool.sendMail({ from: 'a@herald.test', to: 'b@example.test', text: `m${n}` })),
    );
    const got = await waiting;
    assert.equal(got.length, 3);
    assert.equal(mx.connections, 1);
    pool.close();
  });

  it('rejects waitForMessages on timeout with a clear error', async () => {
    await assert.rejects(mx.waitForMessages(1, 100), /smtp-mx: expected 1 message\(s\) within 100ms, got 0/);
  });

  it('close() ends idle client connections instead of waiting for QUIT', async () => {
    const other = await startSmtpMx();
    const pool = createTransport({ host: other.host, port: other.port, pool: true, ignoreTLS: true });
    await pool.sendMail({ from: 'a@herald.test', to: 'b@example.test', text: 'x' });
    const started = Date.now();
    await other.close();
    assert.ok(Date.now() - started < 2000);
    pool.close();
  });
});
