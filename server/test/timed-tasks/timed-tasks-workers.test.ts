import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { epochToZonedTime } from '@herald/shared';
import {
  type DnsServer,
  type Herald,
  type SmtpMx,
  startDnsServer,
  startHerald,
  startSmtpMx,
} from '@herald/test-peers';
import { injector } from '../api-users/fixtures.ts';
import { createTemplate } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { testDialect } from '../helpers/database.ts';
import { createOwner } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { paidSender, TASKS, type Task, timedList } from './timed-task-fixtures.ts';

const INBOX = 'inbox.test';

/**
 * A timed task across a deployment of two worker processes on one database: whichever claims it
 * makes its request once, at its time, and each member of its two lists gets one mail at the
 * loopback MX.
 */
describe(`A timed task with two worker processes on ${testDialect}`, () => {
  let t: TestApp;
  let mx: SmtpMx;
  let dns: DnsServer;
  const workers: Herald[] = [];
  after(async () => {
    await Promise.allSettled(workers.map((w) => w.stop()));
    await t?.close();
    await mx?.close();
    await dns?.close();
  });

  it('fires once', async () => {
    mx = await startSmtpMx();
    dns = await startDnsServer();
    dns.set(INBOX, 'MX', [{ priority: 10, exchange: `mx.${INBOX}` }]);
    dns.set(`mx.${INBOX}`, 'A', ['127.0.0.1']);
    // Every process must open what the others sealed: one key for all of them.
    const env = {
      HERALD_SECRET_KEY: randomBytes(32).toString('base64'),
      HERALD_DNS_SERVERS: dns.address,
      HERALD_MTA_PORT: String(mx.port),
    };
    t = await buildTestApp({ env });
    const owner = await createOwner(t, 'timed_twins');
    const f = await paidSender(t, owner);
    const templateId = await createTemplate(t.core.database, f.accountId, {
      invokeName: 'timed_twins',
      status: 'passed',
      subject: 'Hello %name%',
      html: '<p>Dear %name%, code %code%</p>',
      templateType: 'batch',
    });
    const members = (from: number) =>
      Array.from({ length: 150 }, (_, i): [string, string, string] => [
        `m${from + i}`,
        `M${from + i}`,
        `${i}`,
      ]);
    const lists = [
      await timedList(t, owner, 'twina', members(0)),
      await timedList(t, owner, 'twinb', members(150)),
    ];

    const config = t.core.config.database;
    const processEnv = {
      ...env,
      DATABASE_URL: config.kind === 'sqlite' ? `sqlite:${config.file}` : config.url,
      ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
    };
    for (let i = 0; i < 2; i++) {
      const worker = await startHerald({ env: processEnv, args: ['--role=worker'] });
      await worker.waitForLog((line) => line.json?.msg === 'workers started');
      workers.push(worker);
    }

    const sendAt = Date.now() + 3_000;
    const res = await injector(t)('POST', TASKS, owner, {
      name: 'Twins',
      fromName: 'Shop',
      from: `news@${f.domain}`,
      templateId,
      listIds: lists,
      apiUserId: f.apiUserId,
      sendAt: epochToZonedTime(sendAt, 'Europe/Berlin'),
      timeZone: 'Europe/Berlin',
    });
    assert.equal(res.statusCode, 201, res.body);
    const made = res.json().data as Task;
    assert.equal(made.status, 'waiting');
    await waitFor('300 mails at the MX', async () => mx.messages.length >= 300, { timeoutMs: 90_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(mx.messages.length, 300, 'nobody twice');
    assert.equal(new Set(mx.messages.flatMap((m) => m.rcptTo)).size, 300);
    assert.ok(
      Math.min(...mx.messages.map((m) => m.startedAt.getTime())) >= Math.floor(sendAt / 1000) * 1000,
      'nothing before its time',
    );
    const view = (await injector(t)('GET', `${TASKS}/${made.id}`, owner)).json().data as Task;
    assert.equal(view.status, 'requested');
    assert.equal(view.sends.length, 2, 'one request: one list send per list');
  });
});
