import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type DnsServer, type SmtpMx, startDnsServer, startSmtpMx } from '@herald/test-peers';
import {
  NotificationsService,
  type RetryPolicy,
  type SystemMessageStatus,
} from '../../src/core/notifications/notifications.service.ts';
import { directMailTransport } from '../../src/mta/smtp-delivery.ts';
import { QUEUES } from '../../src/queue/names.ts';
import { startWorkers, type Workers } from '../../src/worker/start-workers.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { decodedBody } from '../helpers/mail.ts';
import { sleep, waitFor } from '../helpers/wait.ts';

/**
 * System mail through Herald's own MTA, end to end: the real workers take the job, look the
 * recipient domain up on the loopback DNS peer and speak SMTP to loopback MX peers. The two MX
 * peers share one port (the MTA port is one setting, as port 25 is in production) on 127.0.0.1
 * and 127.0.0.2.
 */
describe('system mail through the MTA', () => {
  let dns: DnsServer;
  let primary: SmtpMx; // 127.0.0.1
  let secondary: SmtpMx; // 127.0.0.2
  let t: TestApp;
  let workers: Workers;

  before(async () => {
    dns = await startDnsServer();
    primary = await startSmtpMx({ name: 'mx-primary.test' });
    secondary = await startSmtpMx({ host: '127.0.0.2', port: primary.port, name: 'mx-secondary.test' });
    t = await buildTestApp({
      api: false,
      env: {
        HERALD_DNS_SERVERS: dns.address,
        HERALD_MTA_PORT: String(primary.port),
        HERALD_HOSTNAME: 'herald.test',
      },
    });
    workers = await startWorkers(t.core);
  });
  after(async () => {
    await workers?.close(1000);
    await t?.close();
    await Promise.all([dns?.close(), primary?.close(), secondary?.close()]);
  });
  beforeEach(() => {
    primary.clear();
    secondary.clear();
  });

  /** A service with a quick retry policy, sharing the core's database and queue. */
  const quickRetries = (retry: RetryPolicy) =>
    new NotificationsService({
      database: t.core.database,
      mailTransport: directMailTransport(t.core.config),
      openCarrier: undefined,
      queue: t.core.queue,
      config: t.core.config,
      logger: t.core.logger,
      mailRetry: retry,
    });

  const settled = (id: number, status: SystemMessageStatus, timeoutMs = 10_000) =>
    waitFor(
      `message ${id} to become ${status}`,
      async () => {
        const message = await t.core.notifications.get(id);
        return message?.status === status ? message : undefined;
      },
      { timeoutMs },
    );

  it('finds the MX in DNS and delivers the mail there, recording the remote reply', async () => {
    dns.set('example.test', 'MX', [{ priority: 10, exchange: 'mx1.example.test' }]);
    dns.set('mx1.example.test', 'A', ['127.0.0.1']);
    const { id } = await t.core.notifications.sendEmail({
      to: 'alice@example.test',
      subject: '激活您的 Herald 账号',
      text: 'Open the link to activate: https://herald.test/activate?t=abc',
      html: '<p>Open the link to <a href="https://herald.test/activate?t=abc">activate</a></p>',
    });
    const [mail] = await primary.waitForMessages(1, 10_000);
    assert.equal(mail?.subject, '激活您的 Herald 账号');
    assert.deepEqual(mail?.headers.from, ['Herald <no-reply@herald.test>']);
    assert.match(
      mail?.headers['message-id']?.[0] ?? '',
      new RegExp(`^<system\\.${id}\\.[a-z0-9]+@herald\\.test>$`),
    );
    assert.ok(mail?.headers.date?.[0], 'has a Date header');
    assert.equal(mail?.mailFrom, 'no-reply@herald.test');
    assert.deepEqual(mail?.rcptTo, ['alice@example.test']);
    assert.equal(mail?.heloName, 'herald.test');
    assert.equal(mail?.secure, true, 'upgraded with STARTTLS');
    const body = decodedBody(mail?.raw ?? '');
    assert.match(body, /Open the link to activate: https:\/\/herald\.test\/activate\?t=abc/);
    assert.match(body, /<a href="https:\/\/herald\.test\/activate\?t=abc">activate<\/a>/);

    const row = await settled(id, 'delivered');
    assert.match(row.reason ?? '', /^mx1\.example\.test: 250 2\.0\.0 OK/);
    assert.equal(row.attempts, 1);
    assert.equal(row.channel, 'email');
    assert.equal(row.recipient, 'alice@example.test');
    assert.equal(secondary.messages.length, 0);
  });

  it('tries MX hosts by preference and falls back when the first answers 4xx or drops', async () => {
    // Listed out of order: the preferred host (10) is the secondary peer.
    dns.set('fallback.test', 'MX', [
      { priority: 20, exchange: 'mx-b.fallback.test' },
      { priority: 10, exchange: 'mx-a.fallback.test' },
    ]);
    dns.set('mx-a.fallback.test', 'A', ['127.0.0.2']);
    dns.set('mx-b.fallback.test', 'A', ['127.0.0.1']);
    secondary.script('bob@fallback.test', { rcpt: { code: 451, message: '4.3.0 try again later' } });
    secondary.script('carol@fallback.test', { drop: 'rcpt' });

    const bob = await t.core.notifications.sendEmail({
      to: 'bob@fallback.test',
      subject: 'Hi Bob',
      text: 'b',
    });
    const carol = await t.core.notifications.sendEmail({
      to: 'carol@fallback.test',
      subject: 'Hi',
      text: 'c',
    });
    const rows = await Promise.all([settled(bob.id, 'delivered'), settled(carol.id, 'delivered')]);
    for (const row of rows) assert.match(row.reason ?? '', /^mx-b\.fallback\.test: 250 /);
    assert.equal(secondary.messages.length, 0);
    assert.ok(secondary.connections >= 2, 'the preferred MX was tried first');
    assert.deepEqual(primary.messages.map((m) => m.rcptTo[0]).sort(), [
      'bob@fallback.test',
      'carol@fallback.test',
    ]);
  });

  it('bounces on a 5xx with the reply as the reason and does not retry', async () => {
    dns.set('example.test', 'MX', [{ priority: 10, exchange: 'mx1.example.test' }]);
    dns.set('mx1.example.test', 'A', ['127.0.0.1']);
    primary.script('nobody@example.test', { rcpt: { code: 550, message: '5.1.1 user unknown' } });
    const service = quickRetries({ maxAttempts: 3, backoffMs: 100 });
    const { id } = await service.sendEmail({ to: 'nobody@example.test', subject: 'x', text: 'x' });
    const row = await settled(id, 'bounced');
    assert.match(row.reason ?? '', /^mx1\.example\.test: 550 5\.1\.1 user unknown/);
    await sleep(600);
    const after = await t.core.notifications.get(id);
    assert.equal(after?.attempts, 1, 'a bounce is not retried');
    assert.equal(after?.status, 'bounced');
    assert.equal(primary.messages.length, 0);
  });

  it('defers when every MX answers 4xx and delivers on a later retry', async () => {
    dns.set('grey.test', 'MX', [
      { priority: 10, exchange: 'mx1.grey.test' },
      { priority: 20, exchange: 'mx2.grey.test' },
    ]);
    dns.set('mx1.grey.test', 'A', ['127.0.0.1']);
    dns.set('mx2.grey.test', 'A', ['127.0.0.2']);
    const greylisted = { rcpt: { code: 451, message: '4.7.1 greylisted, come back later' } };
    primary.script('dave@grey.test', greylisted);
    secondary.script('dave@grey.test', greylisted);
    const service = quickRetries({ maxAttempts: 4, backoffMs: 400 });
    const { id } = await service.sendEmail({ to: 'dave@grey.test', subject: 'Code', text: '123456' });

    const deferred = await settled(id, 'deferred');
    assert.equal(deferred.attempts, 1);
    assert.match(deferred.reason ?? '', /mx1\.grey\.test \[127\.0\.0\.1\]: 451 4\.7\.1 greylisted/);
    assert.match(deferred.reason ?? '', /mx2\.grey\.test \[127\.0\.0\.2\]: 451 4\.7\.1 greylisted/);
    primary.unscript('dave@grey.test');
    secondary.unscript('dave@grey.test');

    const delivered = await settled(id, 'delivered');
    assert.equal(delivered.attempts, 2);
    assert.equal(primary.messages.length, 1);
  });

  it('gives up after the last attempt and marks the message failed', async () => {
    dns.set('grey.test', 'MX', [{ priority: 10, exchange: 'mx1.grey.test' }]);
    dns.set('mx1.grey.test', 'A', ['127.0.0.1']);
    primary.script('erin@grey.test', { rcpt: { code: 421, message: '4.4.5 too busy' } });
    const service = quickRetries({ maxAttempts: 2, backoffMs: 100 });
    const { id } = await service.sendEmail({ to: 'erin@grey.test', subject: 'x', text: 'x' });
    const failed = await settled(id, 'failed');
    assert.equal(failed.attempts, 2);
    assert.match(failed.reason ?? '', /^gave up after 2 attempts: .*421 4\.4\.5 too busy/);
    const counts = await t.core.queue.counts(QUEUES.mail);
    assert.equal(counts.dead, 0, 'giving up completes the job instead of dead-lettering it');
  });

  it('delivers to the domain itself when it has no MX but an address', async () => {
    dns.set('plain.test', 'A', ['127.0.0.1']);
    const { id } = await t.core.notifications.sendEmail({ to: 'frank@plain.test', subject: 'Hi', text: 'x' });
    const row = await settled(id, 'delivered');
    assert.match(row.reason ?? '', /^plain\.test: 250 /);
    assert.deepEqual(primary.messages[0]?.rcptTo, ['frank@plain.test']);
  });

  it('bounces at once for a domain with a null MX', async () => {
    dns.set('nomail.test', 'MX', [{ priority: 0, exchange: '.' }]);
    dns.set('nomail.test', 'A', ['127.0.0.1']);
    const { id } = await t.core.notifications.sendEmail({ to: 'grace@nomail.test', subject: 'x', text: 'x' });
    const row = await settled(id, 'bounced');
    assert.equal(row.reason, 'nomail.test: domain accepts no mail (null MX)');
    assert.equal(primary.connections, 0);
  });

  it('bounces at once for a domain that does not exist', async () => {
    const { id } = await t.core.notifications.sendEmail({
      to: 'heidi@nowhere.test',
      subject: 'x',
      text: 'x',
    });
    const row = await settled(id, 'bounced');
    assert.equal(row.reason, 'nowhere.test: no such domain (NXDOMAIN)');
    assert.equal(row.attempts, 1);
  });
});
