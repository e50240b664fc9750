import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { decodedBody } from '../helpers/mail.ts';
import { sleep } from '../helpers/wait.ts';
import { verify } from './dkim-helpers.ts';
import { type PipelineHarness, startPipeline } from './pipeline-harness.ts';

/**
 * Accepted mail through the delivery pipeline to a loopback MX: what arrives there (signed,
 * over STARTTLS, personalised), and what the recipient row and its send log say afterwards.
 */
describe('delivery pipeline', () => {
  let h: PipelineHarness;
  before(async () => {
    h = await startPipeline();
  });
  after(async () => {
    await h?.close();
  });
  beforeEach(() => h.mx.clear());

  it('delivers over STARTTLS with a DKIM signature mailauth verifies, a VERP return path and a delivered row', async () => {
    const [emailId] = await h.send({ to: 'ann@dest.test', subject: 'Hello there', html: '<p>Hi Ann</p>' });
    const [mail] = await h.mx.waitForMessages(1);
    assert.ok(mail);
    assert.equal(mail.secure, true, 'STARTTLS was used when offered');
    assert.deepEqual(mail.rcptTo, ['ann@dest.test']);
    assert.match(mail.mailFrom, /^b-[0-9a-z]+-[a-z2-7]{8}@mx\.herald\.test$/);
    assert.equal(mail.subject, 'Hello there');
    assert.match(mail.raw, /^Message-ID: <[^>]+@mail[^>]+\.example\.com>/m);
    const dkim = await verify(Buffer.from(mail.raw), h.sender.dkimTxt);
    assert.equal(dkim.result, 'pass', dkim.comment);
    assert.ok(emailId);
    const row = await h.waitForStatus(emailId, 'delivered');
    assert.match(String(row.last_reply), /^250/);
    assert.equal(row.mx_host, 'mx.dest.test');
    const log = await h.attempts(emailId);
    assert.equal(log.length, 1);
    assert.equal(log[0]?.outcome, 'delivered');
    assert.equal(log[0]?.tls, 1);
    assert.equal(log[0]?.mx_ip, '127.0.0.1');
  });

  it('asks for a read receipt with useNotification and puts contentSummary first as hidden preview text', async () => {
    await h.send({
      to: 'reader@dest.test',
      subject: 'Receipt',
      html: '<html><body><p>The letter</p></body></html>',
      useNotification: 'true',
      contentSummary: 'Preview <of> the letter',
    });
    await h.send({ to: 'plain@dest.test', subject: 'No receipt', html: '<p>x</p>' });
    const mails = await h.mx.waitForMessages(2);
    const withReceipt = mails.find((m) => m.subject === 'Receipt');
    const without = mails.find((m) => m.subject === 'No receipt');
    assert.deepEqual(withReceipt?.headers['disposition-notification-to'], [`news@${h.sender.domain}`]);
    assert.equal(without?.headers['disposition-notification-to'], undefined);
    const html = decodedBody(withReceipt?.raw ?? '');
    assert.match(
      html,
      /<body><div style="display:none;[^"]*">Preview &#60;of&#62; the letter<\/div><p>The letter<\/p>/,
    );
    const dkim = await verify(Buffer.from(withReceipt?.raw ?? ''), h.sender.dkimTxt);
    assert.equal(dkim.result, 'pass', dkim.comment);
  });

  it('personalises each recipient from xsmtpapi sub, section and pubsub', async () => {
    const xsmtpapi = {
      to: ['p1@dest.test', 'p2@dest.test'],
      sub: { '%name%': ['Ann', 'Bob'], '%block%': ['%gold%', '%silver%'] },
      section: { '%gold%': 'Gold member %name%', '%silver%': 'Silver member %name%' },
      pubsub: { '%shop%': 'Herald Shop' },
    };
    await h.send({
      subject: 'Hi %name%',
      html: '<p>Dear %name%: %block% at %shop%</p>',
      xsmtpapi: JSON.stringify(xsmtpapi),
    });
    const mails = await h.mx.waitForMessages(2);
    const byRcpt = new Map(mails.map((m) => [m.rcptTo[0], m]));
    const ann = byRcpt.get('p1@dest.test');
    const bob = byRcpt.get('p2@dest.test');
    assert.ok(ann && bob);
    assert.equal(ann.subject, 'Hi Ann');
    assert.equal(bob.subject, 'Hi Bob');
    assert.match(decodedBody(ann.raw), /Dear Ann: Gold member Ann at Herald Shop/);
    assert.match(decodedBody(bob.raw), /Dear Bob: Silver member Bob at Herald Shop/);
    assert.equal(ann.headers.to?.[0], 'p1@dest.test', 'an individual mail shows only its recipient');
    for (const m of mails) assert.equal((await verify(Buffer.from(m.raw), h.sender.dkimTxt)).result, 'pass');
  });

  it('4xx then 250: deferred with a retry, then exactly one delivery', async () => {
    h.mx.script('grey@dest.test', { rcpt: { code: 451, message: '4.7.1 greylisted, try again' } });
    const [emailId] = await h.send({ to: 'grey@dest.test', subject: 'Grey', html: '<p>x</p>' });
    assert.ok(emailId);
    const deferred = await h.waitForStatus(emailId, 'deferred');
    assert.match(String(deferred.last_reply), /451 4\.7\.1 greylisted/);
    assert.ok(Number(deferred.next_attempt_at) > Date.now() - 1000);
    h.mx.unscript('grey@dest.test');
    await h.waitForStatus(emailId, 'delivered');
    await sleep(300);
    assert.equal(h.mx.messages.filter((m) => m.rcptTo[0] === 'grey@dest.test').length, 1);
    const log = await h.attempts(emailId);
    assert.deepEqual(
      log.map((a) => a.outcome),
      ['deferred', 'delivered'],
    );
    assert.deepEqual(
      log.map((a) => a.attempt),
      [1, 2],
    );
  });

  it('5xx: invalid with the reason and sub-status of the reply, logged, nothing delivered', async () => {
    h.mx.script('nobody@dest.test', { rcpt: { code: 550, message: '5.1.1 user unknown' } });
    const [emailId] = await h.send({ to: 'nobody@dest.test', subject: 'Nobody', html: '<p>x</p>' });
    assert.ok(emailId);
    const row = await h.waitForStatus(emailId, 'invalid');
    assert.equal(row.reason, 'not_exist');
    assert.equal(row.sub_status, 406);
    assert.match(String(row.last_reply), /550 5\.1\.1 user unknown/);
    const log = await h.attempts(emailId);
    assert.equal(log.length, 1);
    assert.equal(log[0]?.outcome, 'invalid');
    assert.equal(log[0]?.category, 'not_exist');
    assert.equal(h.mx.messages.length, 0);
  });

  it('suppressed recipients of a claimed batch: invalid with the list reason, nothing sent to them; the rest delivered', async () => {
    const { accountId } = h.sender;
    await h.t.core.suppression.recordComplaint({ accountId }, 'complained@dest.test', 'fbl');
    await h.t.core.suppression.recordFailure(accountId, 'gone@dest.test', {
      category: 'not_exist',
      kind: 'invalid',
      detail: '550 5.1.1 user unknown',
      at: Date.now(),
    });
    const ids = await Promise.all(
      ['fine-1@dest.test', 'complained@dest.test', 'gone@dest.test', 'fine-2@dest.test'].map(
        async (to) => (await h.send({ to, subject: `To ${to}`, html: '<p>x</p>' }))[0] as string,
      ),
    );
    const [fine1, complained, gone, fine2] = ids as [string, string, string, string];
    for (const id of [complained, gone]) {
      const row = await h.waitForStatus(id, 'invalid');
      assert.equal(row.reason, 'blacklist');
      assert.equal(row.sub_status, 401);
    }
    assert.match(String((await h.recipient(complained)).last_reply), /in blacklist \(spam report/);
    assert.match(String((await h.recipient(gone)).last_reply), /in blacklist \(address does not exist/);
    await h.waitForStatus(fine1, 'delivered');
    await h.waitForStatus(fine2, 'delivered');
    const arrived = h.mx.messages.flatMap((m) => m.rcptTo);
    assert.deepEqual(arrived.sort(), ['fine-1@dest.test', 'fine-2@dest.test']);
  });

  it('null MX: invalid, server unreachable, without a connection', async () => {
    h.dns.set('nomail.test', 'MX', [{ priority: 0, exchange: '.' }]);
    const before = h.mx.connections;
    const [emailId] = await h.send({ to: 'x@nomail.test', subject: 'x', html: '<p>x</p>' });
    assert.ok(emailId);
    const row = await h.waitForStatus(emailId, 'invalid');
    assert.equal(row.reason, 'server_unreachable');
    assert.equal(row.sub_status, 403);
    assert.match(String(row.last_reply), /null MX/);
    assert.equal(h.mx.connections, before);
  });

  it('reuses pooled connections for many messages to one destination', async () => {
    const ids = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        h.send({ to: `many${i}@dest.test`, subject: `m${i}`, html: '<p>x</p>' }),
      ),
    );
    await h.mx.waitForMessages(30);
    assert.equal(ids.length, 30);
    assert.ok(h.mx.connections <= 10, `30 messages over ${h.mx.connections} connections`);
  });
});
