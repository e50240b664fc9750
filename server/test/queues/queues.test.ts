import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import { QueuesService } from '../../src/core/queues/queues.service.ts';
import { AccountSendPolicy } from '../../src/core/queues/send-policy.ts';
import { SenderConfigsService } from '../../src/core/sender-configs/sender-configs.service.ts';
import type { PolicyMessage } from '../../src/mta/ports.ts';
import { expireQueuePauses } from '../../src/worker/tasks/expire-queue-pauses.task.ts';
import { type Inject, injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { joinedMember } from '../helpers/members.ts';
import { createQueueAccount, type QueueAccount, recipientsOf, sendMail } from './queue-fixtures.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * Queue management through the console API (`/mail/queues`) on mail accepted through the real
 * send path, and the SendPolicy holds the delivery pipeline asks for, with an injected clock.
 */
describe('queues', () => {
  let t: TestApp;
  let call: Inject;
  let a: QueueAccount;
  let b: QueueAccount;

  before(async () => {
    t = await buildTestApp();
    call = injector(t);
    a = await createQueueAccount(t, 'queue_a');
    b = await createQueueAccount(t, 'queue_b');
  });
  after(() => t.close());

  const list = async (who = a, body: object = {}) => {
    const res = await call('POST', '/v3/api/mail/queues/getQueueDetailList', who.owner, body);
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as {
      data: {
        apiUserName: string;
        domain: string;
        in: number;
        process: number;
        out: number;
        paused: boolean;
      }[];
      pauses: { id: number; recoverAt: number | null; expiresAt: number | null }[];
    };
  };
  const setStatus = (recipient: string, status: string) =>
    t.core.database.db
      .updateTable('message_recipients')
      .set({ status })
      .where('account_id', '=', a.accountId)
      .where('recipient', '=', recipient)
      .execute();

  it('counts in / process / out per API_USER and domain from the accepted recipients', async () => {
    await sendMail(t, a, ['q1@example.org', 'q2@example.org', 'q3@example.org', 'q4@example.org']);
    let rows = (await list()).data;
    assert.equal(rows.length, 1);
    assert.deepEqual(
      { ...rows[0], pauses: undefined },
      {
        ...rows[0],
        apiUserName: a.apiUser,
        domain: a.domain,
        in: 4,
        process: 0,
        out: 0,
        paused: false,
        pauses: undefined,
      },
    );
    // what the pipeline does to the rows: one being sent, one deferred, one delivered
    await setStatus('q1@example.org', 'sending');
    await setStatus('q2@example.org', 'deferred');
    await setStatus('q3@example.org', 'delivered');
    rows = (await list()).data;
    assert.deepEqual([rows[0]?.in, rows[0]?.process, rows[0]?.out], [4, 2, 1]);
    assert.deepEqual((await list(b)).data, [], "another account's mail is not in the list");
  });

  it('suspends with conditions, shows it paused, holds its mail, and resumes', async () => {
    const res = await call('POST', '/v3/api/mail/queues/suspend', a.owner, {
      apiUserId: a.apiUserId,
      domain: a.domain,
    });
    assert.equal(res.statusCode, 201, res.body);
    const pause = res.json().data.pause;
    assert.equal(pause.recoverAt, null);
    assert.ok(Math.abs(pause.expiresAt - (Date.now() + 7 * DAY)) < 60_000, 'deleted after 7 days by default');
    const rows = (await list()).data;
    assert.equal(rows[0]?.paused, true);

    const message: PolicyMessage = {
      accountId: a.accountId,
      apiUserId: a.apiUserId,
      apiUser: a.apiUser,
      senderDomain: a.domain,
      labelId: null,
      emailType: 'trigger',
      recipientDomain: 'example.org',
    };
    const hold = await t.core.sendPolicy.holdUntil(message, Date.now());
    assert.deepEqual(hold, { until: pause.expiresAt, reason: 'queue paused' });
    assert.equal(await t.core.sendPolicy.holdUntil({ ...message, accountId: b.accountId }, Date.now()), null);

    // the pipeline holds q4 until the pause ends
    await t.core.database.db
      .updateTable('message_recipients')
      .set({ status: 'held', next_attempt_at: pause.expiresAt, reason: 'queue paused' })
      .where('recipient', '=', 'q4@example.org')
      .execute();
    assert.equal((await list()).data[0]?.process, 3);

    const resumed = await call('POST', '/v3/api/mail/queues/resume', a.owner, {
      apiUserId: a.apiUserId,
      domain: a.domain,
    });
    assert.equal(resumed.statusCode, 201, resumed.body);
    assert.deepEqual(resumed.json().data, { lifted: 1, released: 1 });
    const q4 = (await recipientsOf(t, a.accountId)).get('q4@example.org');
    assert.ok(q4 && q4.next_attempt_at <= Date.now(), 'held mail is due now');
    assert.equal((await list()).data[0]?.paused, false);
    assert.equal(await t.core.sendPolicy.holdUntil(message, Date.now()), null);

    const again = await call(
      'POST',
      '/v3/api/mail/queues/resume',
      a.owner,
      { apiUserId: a.apiUserId },
      'zh-cn',
    );
    assert.equal(again.statusCode, 404);
    assert.equal(again.json().error, '该队列没有被暂停');
  });

  it('validates the recover time in both languages', async () => {
    for (const [lang, message] of [
      ['en', 'The recover time cannot be earlier than now'],
      ['zh-cn', '恢复时间不能早于当前时间'],
    ] as const) {
      const res = await call(
        'POST',
        '/v3/api/mail/queues/suspend',
        a.owner,
        { recoverAt: Date.now() - 1000 },
        lang,
      );
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().fields[0].message, message);
    }
    const before = await call(
      'POST',
      '/v3/api/mail/queues/suspend',
      a.owner,
      { startAt: Date.now() + 2 * HOUR, recoverAt: Date.now() + HOUR },
      'zh-cn',
    );
    assert.equal(before.json().fields[0].message, '恢复时间不能早于暂停开始时间');
    const badDomain = await call('POST', '/v3/api/mail/queues/suspend', a.owner, { domain: 'not a domain' });
    assert.equal(badDomain.json().fields[0].message, 'Invalid domain name, e.g. mail.example.com');
  });

  it('deletes queued mail matching the conditions; delivered and in-flight mail stay', async () => {
    await sendMail(t, a, ['d1@example.net', 'd2@example.net'], { labelId: String(a.labelId) });
    const res = await call('POST', '/v3/api/mail/queues/delete', a.owner, {
      apiUserId: a.apiUserId,
      labelId: a.labelId,
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json().data, { deleted: 2 });
    const rows = await recipientsOf(t, a.accountId);
    assert.equal(rows.get('d1@example.net')?.status, 'deleted');
    assert.equal(rows.get('d2@example.net')?.status, 'deleted');
    assert.equal(rows.get('q4@example.org')?.status, 'held', 'mail without the label is kept');
    const all = await call('POST', '/v3/api/mail/queues/delete', a.owner, { domain: a.domain });
    assert.deepEqual(all.json().data, { deleted: 2 }, 'the deferred and the held recipient');
    const after = await recipientsOf(t, a.accountId);
    assert.equal(after.get('q1@example.org')?.status, 'sending');
    assert.equal(after.get('q3@example.org')?.status, 'delivered');
    assert.equal(after.get('q2@example.org')?.status, 'deleted');
    assert.equal(after.get('q4@example.org')?.status, 'deleted');
    const counts = (await list()).data[0];
    assert.deepEqual([counts?.in, counts?.process, counts?.out], [6, 1, 5]);
  });

  it("conditions naming another account's API_USER, label or domain are a 404", async () => {
    for (const body of [{ apiUserId: b.apiUserId }, { labelId: b.labelId }, { domain: b.domain }]) {
      for (const action of ['suspend', 'resume', 'delete', 'getQueueDetailList']) {
        const res = await call('POST', `/v3/api/mail/queues/${action}`, a.owner, body);
        assert.equal(res.statusCode, 404, `${action} ${JSON.stringify(body)}`);
      }
    }
    const theirs = (await call('POST', '/v3/api/mail/queues/suspend', b.owner, {})).json().data.pause;
    const stolen = await call('POST', '/v3/api/mail/queues/recoverPausedQueue', a.owner, {
      pauseId: theirs.id,
    });
    assert.equal(stolen.statusCode, 404);
    assert.equal(stolen.json().error, 'Queue pause not found');
    const own = await call('POST', '/v3/api/mail/queues/recoverPausedQueue', b.owner, { pauseId: theirs.id });
    assert.equal(own.statusCode, 201);
  });

  it('needs code 12', async () => {
    const member = await joinedMember(t, a.owner, 'queue_settings_only', {
      type: 'custom',
      levels: { [P.EMAIL_SETTINGS]: 'full' },
    });
    for (const action of ['getQueueDetailList', 'suspend', 'resume', 'delete', 'recoverPausedQueue']) {
      assert.equal((await call('POST', `/v3/api/mail/queues/${action}`, member, {})).statusCode, 403, action);
    }
    const sender = await joinedMember(t, a.owner, 'queue_sender', {
      type: 'custom',
      levels: { [P.EMAIL_SEND]: 'full' },
    });
    assert.equal((await call('POST', '/v3/api/mail/queues/getQueueDetailList', sender, {})).statusCode, 201);
    const reader = await joinedMember(t, a.owner, 'queue_reader', {
      type: 'custom',
      levels: { [P.EMAIL_SEND]: 'read' },
    });
    assert.equal((await call('POST', '/v3/api/mail/queues/getQueueDetailList', reader, {})).statusCode, 201);
    assert.equal((await call('POST', '/v3/api/mail/queues/suspend', reader, {})).statusCode, 403);
  });
});

describe('holdUntil with an injected clock', () => {
  let t: TestApp;
  let a: QueueAccount;
  let clock = Date.UTC(2026, 0, 5, 2, 0); // Monday 2026-01-05 10:00 in Asia/Shanghai
  let queues: QueuesService;
  let configs: SenderConfigsService;
  let policy: AccountSendPolicy;

  before(async () => {
    t = await buildTestApp();
    a = await createQueueAccount(t, 'hold_a');
    queues = new QueuesService(t.core.database, { now: () => clock, pauseMaxDays: 3, ttlMs: 0 });
    configs = new SenderConfigsService(t.core.database, { now: () => clock, ttlMs: 0 });
    policy = new AccountSendPolicy(configs, queues);
  });
  after(() => t.close());

  const message = (over: Partial<PolicyMessage> = {}): PolicyMessage => ({
    accountId: a.accountId,
    apiUserId: a.apiUserId,
    apiUser: a.apiUser,
    senderDomain: a.domain,
    labelId: null,
    emailType: 'batch',
    recipientDomain: 'example.org',
    ...over,
  });

  it('holds until the recover time, or until the automatic deletion when there is none', async () => {
    const { pause } = await queues.suspend({ accountId: a.accountId }, { apiUserId: a.apiUserId });
    assert.equal(pause.expiresAt, clock + 3 * DAY);
    assert.deepEqual(await policy.holdUntil(message(), clock), {
      until: clock + 3 * DAY,
      reason: 'queue paused',
    });
    assert.equal(
      await policy.holdUntil(message({ apiUserId: a.apiUserId + 1000 }), clock),
      null,
      'another API_USER',
    );

    // same conditions, overlapping: the new pause (with a recover time) replaces the old
    const second = await queues.suspend(
      { accountId: a.accountId },
      { apiUserId: a.apiUserId, recoverAt: clock + 2 * HOUR },
    );
    assert.equal(second.replaced, 1);
    assert.deepEqual(await policy.holdUntil(message(), clock), {
      until: clock + 2 * HOUR,
      reason: 'queue paused',
    });
    assert.equal(await policy.holdUntil(message(), clock + 2 * HOUR), null, 'released at the recover time');

    // same conditions, later and not overlapping: both are kept
    const later = await queues.suspend(
      { accountId: a.accountId },
      {
        apiUserId: a.apiUserId,
        startAt: clock + 5 * HOUR,
        recoverAt: clock + 6 * HOUR,
      },
    );
    assert.equal(later.replaced, 0);
    assert.equal(await policy.holdUntil(message(), clock + 3 * HOUR), null, 'not started yet');
    assert.deepEqual(await policy.holdUntil(message(), clock + 5 * HOUR), {
      until: clock + 6 * HOUR,
      reason: 'queue paused',
    });
    assert.equal((await queues.list({ accountId: a.accountId })).pauses.length, 2);

    // other conditions: a label pause holds only that label's mail
    await queues.suspend({ accountId: a.accountId }, { labelId: a.labelId, recoverAt: clock + HOUR });
    assert.equal(second.replaced, 1);
    assert.deepEqual(await policy.holdUntil(message({ labelId: a.labelId, apiUserId: null }), clock), {
      until: clock + HOUR,
      reason: 'queue paused',
    });
    assert.equal(await policy.holdUntil(message({ apiUserId: null }), clock), null);
  });

  it('deletes pauses without a recover time after the configured days (the periodic task)', async () => {
    const { pause } = await queues.suspend({ accountId: a.accountId }, { domain: a.domain });
    clock += 3 * DAY - 1;
    assert.equal((await queues.expirePauses()) >= 0, true);
    assert.ok(
      (await queues.list({ accountId: a.accountId })).pauses.some((p) => p.id === pause.id),
      'kept before its expiry',
    );
    clock += 1;
    await queues.expirePauses();
    const left = await t.core.database.db
      .selectFrom('queue_pauses')
      .select('id')
      .where('account_id', '=', a.accountId)
      .execute();
    assert.deepEqual(left, [], 'expired and recovered pauses are deleted');
    // the registered job calls the same core function
    await queues.suspend({ accountId: a.accountId }, { domain: a.domain, startAt: Date.now() - 10 * DAY });
    await t.core.database.db
      .updateTable('queue_pauses')
      .set({ expires_at: Date.now() - 1 })
      .where('account_id', '=', a.accountId)
      .execute();
    await expireQueuePauses.handle(t.core, undefined, new AbortController().signal);
    assert.equal(
      (
        await t.core.database.db
          .selectFrom('queue_pauses')
          .select('id')
          .where('account_id', '=', a.accountId)
          .execute()
      ).length,
      0,
    );
  });

  it('holds batch mail in do-not-disturb windows (Asia/Shanghai) until the window ends', async () => {
    clock = Date.UTC(2026, 0, 5, 2, 0); // Monday 10:00 in Shanghai, 5th of the month
    const at = (day: number, hh: number, mm: number) => Date.UTC(2026, 0, day, hh - 8, mm);
    await configs.save({ accountId: a.accountId }, 'nodisturb', {
      cycle: 'day',
      start: '09:00',
      end: '10:29',
    });
    assert.deepEqual(await policy.holdUntil(message(), at(5, 10, 0)), {
      until: at(5, 10, 30),
      reason: 'do not disturb',
    });
    assert.equal(
      await policy.holdUntil(message({ emailType: 'trigger' }), at(5, 10, 0)),
      null,
      'trigger mail goes',
    );
    assert.equal(await policy.holdUntil(message(), at(5, 10, 30)), null, 'after the end minute');
    assert.equal(await policy.holdUntil(message(), at(5, 8, 59)), null, 'before the start');

    await configs.save({ accountId: a.accountId }, 'nodisturb', {
      cycle: 'week',
      days: [1, 3],
      start: '20:00',
      end: '23:59',
    });
    assert.deepEqual(await policy.holdUntil(message(), at(5, 21, 15)), {
      until: at(6, 0, 0),
      reason: 'do not disturb',
    });
    assert.equal(await policy.holdUntil(message(), at(6, 21, 15)), null, 'Tuesday is not a chosen day');
    assert.ok(await policy.holdUntil(message(), at(7, 21, 15)), 'Wednesday is');

    await configs.save({ accountId: a.accountId }, 'nodisturb', {
      cycle: 'month',
      days: '15,31',
      start: '00:00',
      end: '06:00',
    });
    assert.deepEqual(await policy.holdUntil(message(), at(15, 3, 0)), {
      until: at(15, 6, 1),
      reason: 'do not disturb',
    });
    assert.equal(await policy.holdUntil(message(), at(16, 3, 0)), null);

    // a pause ending later than the window wins
    await queues.suspend({ accountId: a.accountId }, { apiUserId: a.apiUserId, recoverAt: at(15, 12, 0) });
    clock = at(15, 3, 0);
    assert.deepEqual(await policy.holdUntil(message(), at(15, 3, 0)), {
      until: at(15, 12, 0),
      reason: 'queue paused',
    });

    // the switch turns the windows off
    await configs.setSwitch({ accountId: a.accountId }, 'nodisturb', false);
    assert.equal(await policy.holdUntil(message({ apiUserId: null }), at(5, 10, 0)), null);
  });
});
