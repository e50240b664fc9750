import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { testTls } from '@herald/test-peers';
import { SMTPServer } from 'smtp-server';
import { loadSecretKey } from '../../src/lib/secret-box.ts';
import { unsubscribeKey, verifyUnsubscribeToken } from '../../src/lib/unsubscribe-token.ts';
import { dotWithoutMark, SmtpConnection } from '../../src/mta/smtp-client/smtp-connection.ts';
import { createInboundServer } from '../../src/smtp/inbound-server.ts';
import { closeSmtp, listenSmtp } from '../../src/smtp/listen.ts';
import { verify } from './dkim-helpers.ts';
import { type PipelineHarness, startPipeline } from './pipeline-harness.ts';

interface Relayed {
  user: string | undefined;
  rcpt: string[];
  secure: boolean;
  raw: string;
}

/** Bounces after delivery, relay mode, per-destination rate limits and batch-mail headers. */
describe('delivery pipeline: bounces, relay, limits, batch mail', () => {
  const harnesses: PipelineHarness[] = [];
  const servers: SMTPServer[] = [];
  after(async () => {
    await Promise.all(harnesses.map((h) => h.close()));
    await Promise.all(servers.map(closeSmtp));
  });

  it('a DSN sent later to the VERP address makes the delivered recipient a soft bounce', async () => {
    const h = await startPipeline();
    harnesses.push(h);
    const [emailId] = await h.send({ to: 'gone@dest.test', subject: 'Later', html: '<p>x</p>' });
    assert.ok(emailId);
    const [mail] = await h.mx.waitForMessages(1);
    assert.ok(mail);
    await h.waitForStatus(emailId, 'delivered');

    const inbound = createInboundServer(h.t.core);
    servers.push(inbound);
    const address = await listenSmtp(inbound, 0, '127.0.0.1');
    const client = await SmtpConnection.open({
      host: '127.0.0.1',
      port: address.port,
      timeoutMs: 5000,
      localName: 'mx.dest.test',
    });
    const refused = await client.send(
      { from: '', to: ['postmaster@mx.herald.test'] },
      Buffer.from('Subject: x\r\n\r\nx\r\n'),
      dotWithoutMark,
    );
    assert.equal(refused.rcpt[0]?.code, 550, 'an address Herald did not issue is refused');

    const dsn = [
      'From: Mail Delivery System <MAILER-DAEMON@mx.dest.test>',
      `To: ${mail.mailFrom}`,
      'Subject: Undelivered Mail Returned to Sender',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
      '',
      '--B',
      'Content-Type: text/plain',
      '',
      'The mailbox is gone.',
      '--B',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.dest.test',
      '',
      'Final-Recipient: rfc822; gone@dest.test',
      'Action: failed',
      'Status: 5.1.1',
      'Diagnostic-Code: smtp; 550 5.1.1 <gone@dest.test>: mailbox unavailable',
      '',
      '--B--',
      '',
    ].join('\r\n');
    const sent = await client.send({ from: '', to: [mail.mailFrom] }, Buffer.from(dsn), dotWithoutMark);
    await client.quit();
    assert.equal(sent.final?.code, 250, sent.final?.text);

    const row = await h.waitForStatus(emailId, 'soft_bounce');
    assert.equal(row.reason, 'address_missing');
    assert.equal(row.sub_status, 506);
    assert.match(String(row.last_reply), /mailbox unavailable/);
    const log = await h.attempts(emailId);
    assert.deepEqual(
      log.map((a) => a.outcome),
      ['delivered', 'soft_bounce'],
    );
  });

  /** A smart host on loopback: STARTTLS, AUTH as relayuser, catching what it is given. */
  async function startRelay(): Promise<{ port: number; received: Relayed[] }> {
    const received: Relayed[] = [];
    const tls = testTls();
    const relay = new SMTPServer({
      key: tls.key,
      cert: tls.cert,
      authMethods: ['PLAIN', 'LOGIN'],
      allowInsecureAuth: false,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === 'relayuser' && auth.password === 's3cret p@ss')
          return callback(null, { user: auth.username });
        callback(new Error('bad credentials'));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            user: session.user as string | undefined,
            rcpt: session.envelope.rcptTo.map((r) => r.address),
            secure: session.secure,
            raw: Buffer.concat(chunks).toString(),
          });
          callback();
        });
      },
    });
    servers.push(relay);
    return { port: (await listenSmtp(relay, 0, '127.0.0.1')).port, received };
  }

  it('relay mode: everything goes to the smart host, with STARTTLS and AUTH', async () => {
    const { port, received } = await startRelay();
    const h = await startPipeline({
      env: {
        HERALD_RELAY_URL: `smtp://relayuser:${encodeURIComponent('s3cret p@ss')}@127.0.0.1:${port}?insecure=1&starttls=required`,
      },
    });
    harnesses.push(h);
    const [emailId] = await h.send({
      to: 'someone@elsewhere.example',
      subject: 'Via relay',
      html: '<p>x</p>',
    });
    assert.ok(emailId);
    await h.waitForStatus(emailId, 'delivered');
    assert.equal(received.length, 1);
    assert.equal(received[0]?.user, 'relayuser');
    assert.equal(received[0]?.secure, true);
    assert.deepEqual(received[0]?.rcpt, ['someone@elsewhere.example']);
    assert.equal(h.mx.messages.length, 0, 'nothing went to the MX');
    assert.equal((await verify(Buffer.from(received[0]?.raw ?? ''), h.sender.dkimTxt)).result, 'pass');
  });

  it("an account's own relay: its mail goes to its smart host with AUTH, another account's to the MX", async () => {
    const { port, received } = await startRelay();
    const h = await startPipeline({ env: { HERALD_RELAY_ALLOW_PRIVATE: '1' } });
    harnesses.push(h);
    const configs = h.t.core.senderConfigs;
    const relayInput = {
      host: '127.0.0.1',
      port,
      security: 'starttls',
      requireTls: true,
      verifyCertificate: false,
      username: 'relayuser',
      password: 's3cret p@ss',
    };
    const saved = await configs.save({ accountId: h.sender.accountId }, 'relay', relayInput);
    assert.equal(saved.entries[0]?.hasPassword, true);
    assert.equal(saved.entries[0]?.password, undefined, 'the password is never shown');
    assert.equal(saved.entries[0]?.passwordSealed, undefined);
    const stored = await h.t.core.database.db
      .selectFrom('sender_config_entries')
      .select('settings')
      .where('account_id', '=', h.sender.accountId)
      .where('kind', '=', 'relay')
      .executeTakeFirstOrThrow();
    assert.doesNotMatch(stored.settings, /s3cret/, 'the password is sealed at rest');

    const [viaRelay] = await h.send({ to: 'someone@dest.test', subject: 'Via my relay', html: '<p>x</p>' });
    assert.ok(viaRelay);
    await h.waitForStatus(viaRelay, 'delivered');
    assert.equal(received.length, 1);
    assert.equal(received[0]?.user, 'relayuser');
    assert.equal(received[0]?.secure, true);
    assert.deepEqual(received[0]?.rcpt, ['someone@dest.test']);
    assert.equal((await verify(Buffer.from(received[0]?.raw ?? ''), h.sender.dkimTxt)).result, 'pass');
    assert.equal((await h.recipient(viaRelay)).mx_host, '127.0.0.1');

    const other = await h.addSender();
    const [direct] = await h.send(
      { from: `news@${other.domain}`, to: 'other@dest.test', subject: 'Direct', html: '<p>y</p>' },
      other.caller,
    );
    assert.ok(direct);
    const [mail] = await h.mx.waitForMessages(1);
    assert.deepEqual(mail?.rcptTo, ['other@dest.test']);
    assert.equal(received.length, 1, "the other account's mail did not go through the relay");

    // Saved again without a password: the stored one is kept; switched off: straight to the MX.
    await configs.save({ accountId: h.sender.accountId }, 'relay', { ...relayInput, password: '' });
    const [kept] = await h.send({ to: 'again@dest.test', subject: 'Kept', html: '<p>z</p>' });
    assert.ok(kept);
    await h.waitForStatus(kept, 'delivered');
    assert.equal(received.length, 2);
    await configs.setSwitch({ accountId: h.sender.accountId }, 'relay', false);
    const [off] = await h.send({ to: 'off@dest.test', subject: 'Off', html: '<p>w</p>' });
    assert.ok(off);
    await h.mx.waitForMessages(2);
    assert.equal(received.length, 2);
  });

  it("an account's relay on an internal address: refused when saved, deferred when its name resolves to one", async () => {
    const h = await startPipeline();
    harnesses.push(h);
    const configs = h.t.core.senderConfigs;
    await assert.rejects(
      configs.save({ accountId: h.sender.accountId }, 'relay', { host: '10.1.2.3', port: 587 }),
      (error: Error & { code?: string }) => error.code === 'SENDER_RELAY_ADDRESS_REFUSED',
    );
    await assert.rejects(
      configs.save({ accountId: h.sender.accountId }, 'relay', {
        host: 'smtp.relay.test',
        username: 'someone',
      }),
      (error: Error & { code?: string }) => error.code === 'SENDER_RELAY_PASSWORD_REQUIRED',
    );
    h.dns.set('smtp.relay.test', 'A', ['127.0.0.1']);
    await configs.save({ accountId: h.sender.accountId }, 'relay', { host: 'smtp.relay.test', port: 2525 });
    const [emailId] = await h.send({ to: 'someone@dest.test', subject: 'Nope', html: '<p>x</p>' });
    assert.ok(emailId);
    const row = await h.waitForStatus(emailId, 'deferred');
    assert.match(
      String(row.last_reply),
      /relay smtp\.relay\.test is an internal or reserved address \(127\.0\.0\.1\)/,
    );
    assert.equal(h.mx.messages.length, 0);
  });

  it('per-destination rate limit: arrivals at the MX are spaced by the configured rate', async () => {
    const h = await startPipeline({
      env: {
        HERALD_DESTINATION_LIMITS: JSON.stringify({ 'dest.test': { connections: 2, messagesPerSecond: 10 } }),
      },
    });
    harnesses.push(h);
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        h.send({ to: `rate${i}@dest.test`, subject: `r${i}`, html: '<p>x</p>' }),
      ),
    );
    const mails = await h.mx.waitForMessages(12, 10_000);
    // The pacing shows in when transactions start at the MX: 11 gaps of 100 ms from the first
    // start (unpaced, all 12 start within a few tens of ms). Only the whole span is checked: the
    // MX shares its event loop with this process, whose pauses on a loaded machine bunch what it
    // records in between, and can hold back the first start while the last keeps its slot; so
    // the bound sits well under 1100 ms and far above what an unpaced run gives.
    const times = mails.map((m) => m.startedAt.getTime()).sort((a, b) => a - b);
    const span = (times[11] as number) - (times[0] as number);
    assert.ok(span >= 600, `transactions 1 to 12 at 10/s started within ${span} ms (expected about 1100)`);
    assert.ok(h.mx.connections <= 2);
  });

  it('batch mail carries one-click List-Unsubscribe headers with a signed token, inside the DKIM signature', async () => {
    const h = await startPipeline({ emailType: 'batch' });
    harnesses.push(h);
    const [emailId] = await h.send({ to: 'reader@dest.test', subject: 'Newsletter', html: '<p>news</p>' });
    assert.ok(emailId);
    const [mail] = await h.mx.waitForMessages(1);
    assert.ok(mail);
    const header = mail.headers['list-unsubscribe']?.[0] ?? '';
    const match = /^<https:\/\/herald\.test\/unsubscribe\/([^>]+)>$/.exec(header);
    assert.ok(match, header);
    assert.equal(mail.headers['list-unsubscribe-post']?.[0], 'List-Unsubscribe=One-Click');
    const row = await h.recipient(emailId);
    const claim = verifyUnsubscribeToken(match[1] as string, unsubscribeKey(loadSecretKey(h.t.core.config)));
    assert.deepEqual(claim, {
      accountId: h.sender.accountId,
      recipientId: Number(row.id),
      email: 'reader@dest.test',
    });
    assert.equal(
      verifyUnsubscribeToken(`${match[1]}x`, unsubscribeKey(loadSecretKey(h.t.core.config))),
      null,
    );
    const dkim = await verify(Buffer.from(mail.raw), h.sender.dkimTxt);
    assert.equal(dkim.result, 'pass');
    assert.match(mail.raw, /^DKIM-Signature:[\s\S]*?h=[^;]*list-unsubscribe:list-unsubscribe-post/m);
  });
});
