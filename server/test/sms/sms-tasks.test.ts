import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import { type Herald, type SmppCarrier, startHerald, startSmppCarrier } from '@herald/test-peers';
import { injector } from '../api-users/fixtures.ts';
import { createSmsTemplate } from '../fixtures/sms-factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { type SmsReady, smsapi, smsReadyAccount } from './sms-fixtures.ts';

/**
 * SMS tasks end to end: a paid account sends a marketing template to its contact lists through
 * the console's calls and the SMS API; Herald's runner writes the messages in the task lane and
 * the carrier peer receives each number once, its variables filled. Scheduled tasks wait for their
 * time and can be cancelled until then; a finished task's failed SMS are resent once; a handset's
 * opt-out reply keeps the next task from that number; a verification code sent while a task's
 * messages wait goes to the carrier before them.
 */
const MARKETING = '%name%您好，会员日全场八折，回T退订';

interface Task {
  id: number;
  status: string;
  memberTotal: number;
  queued: number;
  skipped: number;
  skipReasons: { code: string; message: string; count: number }[];
  delivered: number;
  failed: number;
  requesting: number;
  resendable: boolean;
  resentBy: number | null;
  error: string | null;
}

function marketingTemplate(t: TestApp, ready: SmsReady): Promise<number> {
  return createSmsTemplate(t.core.database, ready.accountId, {
    name: `${ready.smsUser}_sale`,
    smsType: 'marketing',
    content: MARKETING,
    variables: { name: '张三' },
    signId: ready.signId,
  });
}

/** A contact list written as an import leaves it: members in number order, the count in step. */
async function contactList(
  t: TestApp,
  accountId: number,
  name: string,
  members: { phone: string; name?: string }[],
): Promise<number> {
  const list = await t.core.smsContacts.createList({ accountId }, { name, description: '' });
  const now = Date.now();
  for (let i = 0; i < members.length; i += 200) {
    await t.core.database.db
      .insertInto('sms_contact_members')
      .values(
        members.slice(i, i + 200).map((m) => ({
          list_id: list.id,
          phone: m.phone,
          name: m.name ?? '',
          vars: null,
          import_id: null,
          created_at: now,
        })),
      )
      .execute();
  }
  await t.core.database.db
    .updateTable('sms_contact_lists')
    .set({ member_count: members.length })
    .where('id', '=', list.id)
    .execute();
  return list.id;
}

describe('SMS tasks', () => {
  let t: TestApp;
  let carrier: SmppCarrier;
  let call: ReturnType<typeof injector>;
  let owner: SignedIn;
  let ready: SmsReady;
  let templateId: number;
  let other: SignedIn;
  let stopRunner = false;
  let runner: Promise<void> | undefined;

  const runTasks = () => {
    runner = (async () => {
      while (!stopRunner) {
        const worked = await t.core.smsTasks
          .runDue('test-runner', () => stopRunner)
          .catch((error) => {
            console.error('runner', error);
            return false;
          });
        await t.core.smsTasks.finishSent();
        if (!worked) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
  };
  const task = async (id: number, who: SignedIn = owner) => {
    const res = await call('GET', `/v3/api/sms/smsTasks/${id}`, who);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as Task;
  };
  const create = (body: Record<string, unknown>, who: SignedIn = owner, lang = 'en') =>
    call('POST', '/v3/api/sms/smsTasks', who, body, lang);
  const received = (phone: string) =>
    carrier.messages.filter((m) => m.destination === phone.replace(/^\+/, '')).map((m) => m.text);

  before(async () => {
    carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 5 });
    t = await buildTestApp();
    await t.core.smsCarriers.save({
      name: 'cmcc',
      url: `smpp://127.0.0.1:${carrier.port}`,
      systemId: 'herald',
      password: 'secret',
      sourceAddr: '10690001',
    });
    await t.core.smsCarriers.addRoute({ carrier: 'cmcc', country: 'CN', prefix: '1' });
    owner = await createOwner(t, 'task_owner');
    ready = await smsReadyAccount(t, owner.ctx.accountId, 'task_user');
    templateId = await marketingTemplate(t, ready);
    other = await createOwner(t, 'task_other');
    call = injector(t);
    t.core.smsDelivery.start();
  });
  after(async () => {
    stopRunner = true;
    await runner;
    await t?.close();
    await carrier?.close();
  });

  it('is a paid account’s function, in both languages', async () => {
    const listId = await contactList(t, ready.accountId, 'free_list', [{ phone: '+8613800000001' }]);
    const zh = await create({ name: 'free', templateId, contactListIds: [listId] }, owner, 'zh-cn');
    assert.equal(zh.statusCode, 403);
    assert.equal(zh.json().message, '短信任务仅对付费用户开放');
    const en = await create({ name: 'free', templateId, contactListIds: [listId] });
    assert.equal(en.json().message, 'SMS tasks are open only to paid users');
    await t.core.database.db
      .updateTable('accounts')
      .set({ plan: 'paid' })
      .where('id', '=', ready.accountId)
      .execute();
  });

  it('checks the form on the server: lists, template, time; another account’s list is not found', async () => {
    const listId = await contactList(t, ready.accountId, 'checks', [{ phone: '+8613800000002' }]);
    const empty = await contactList(t, ready.accountId, 'empty', []);
    const theirs = await contactList(t, other.ctx.accountId, 'theirs', [{ phone: '+8613800000003' }]);
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ name: '', templateId, contactListIds: [listId] }, 400, /task name/],
      [{ name: 'x', templateId, contactListIds: [] }, 400, /1 to 5 contact lists/],
      [{ name: 'x', templateId, contactListIds: [1, 2, 3, 4, 5, 6] }, 400, /1 to 5 contact lists/],
      [{ name: 'x', templateId, contactListIds: [theirs] }, 404, /contact list does not exist/],
      [{ name: 'x', templateId, contactListIds: [empty] }, 422, /no numbers/],
      [
        { name: 'x', templateId: ready.templateId + 999, contactListIds: [listId] },
        404,
        /template does not exist/,
      ],
      [
        { name: 'x', templateId, contactListIds: [listId], scheduled: true, sendAt: Date.now() - 60_000 },
        400,
        /must not be in the past/,
      ],
      [{ name: 'x', templateId, contactListIds: [listId], scheduled: true }, 400, /send time/],
    ];
    for (const [body, status, message] of cases) {
      const res = await create(body);
      assert.equal(res.statusCode, status, `${JSON.stringify(body)}: ${res.body}`);
      const answer = res.json() as { message: string; fields?: { message: string }[] };
      assert.match(answer.fields?.[0]?.message ?? answer.message, message);
    }
  });

  it('sends each number of its lists once, variables filled, and ends finished', async () => {
    const first = await contactList(t, ready.accountId, 'vip', [
      { phone: '+8613800001001', name: '王五' },
      { phone: '+8613800001002', name: '赵六' },
      { phone: '+14155550100', name: 'Sam' },
    ]);
    const second = await contactList(t, ready.accountId, 'vip2', [
      { phone: '+8613800001002', name: '赵六' },
      { phone: '+8613800001003', name: '钱七' },
    ]);
    const res = await create({ name: '会员日', templateId, contactListIds: [first, second] });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json().data as Task;
    assert.equal(created.status, 'waiting');
    runTasks();

    await waitFor('the task to finish', async () => (await task(created.id)).status === 'finished');
    await waitFor('its receipts', async () => (await task(created.id)).delivered === 3);
    const done = await task(created.id);
    assert.equal(done.memberTotal, 5);
    assert.equal(done.queued, 3);
    assert.deepEqual(
      done.skipReasons.map((r) => [r.code, r.count]),
      [['SMS_PHONE_INVALID', 1]],
      'the international number of a domestic task is left out',
    );
    assert.deepEqual(received('+8613800001001'), ['【赫耳墨斯】王五您好，会员日全场八折，回T退订']);
    assert.deepEqual(received('+8613800001002'), ['【赫耳墨斯】赵六您好，会员日全场八折，回T退订']);
    assert.equal(received('+8613800001003').length, 1);
    assert.equal(received('+14155550100').length, 0);

    const statuses = await smsapi(t, 'status/query', ready, { phones: '13800001002', days: '1' });
    assert.equal((statuses.body.info.voList as unknown[]).length, 1, 'one SMS for a number in two lists');
  });

  it('waits for its time, can be cancelled until then, and not after', async () => {
    const listId = await contactList(t, ready.accountId, 'later', [
      { phone: '+8613800002001', name: '孙八' },
    ]);
    const res = await create({
      name: 'later',
      templateId,
      contactListIds: [listId],
      scheduled: true,
      sendAt: Date.now() + 3600_000,
    });
    assert.equal(res.statusCode, 201, res.body);
    const id = (res.json().data as Task).id;
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await task(id)).status, 'waiting');
    assert.equal(received('+8613800002001').length, 0);

    assert.equal((await call('POST', `/v3/api/sms/smsTasks/${id}/cancel`, other)).statusCode, 404);
    const cancelled = await call('POST', `/v3/api/sms/smsTasks/${id}/cancel`, owner);
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.equal((await task(id)).status, 'cancelled');
    const again = await call('POST', `/v3/api/sms/smsTasks/${id}/cancel`, owner);
    assert.equal(again.statusCode, 409);
  });

  it('resends a finished task’s failed SMS once, as a task of their own', async () => {
    carrier.script('8613800003002', { receipt: 'UNDELIV', err: '002' });
    const listId = await contactList(t, ready.accountId, 'resend', [
      { phone: '+8613800003001', name: '甲' },
      { phone: '+8613800003002', name: '乙' },
    ]);
    const id = (
      (await create({ name: 'resend me', templateId, contactListIds: [listId] })).json().data as Task
    ).id;
    await waitFor('its receipts', async () => {
      const view = await task(id);
      return view.status === 'finished' && view.delivered === 1 && view.failed === 1;
    });
    assert.equal((await task(id)).resendable, true);
    carrier.unscript('8613800003002');

    const resent = await call('POST', `/v3/api/sms/smsTasks/${id}/resend`, owner);
    assert.equal(resent.statusCode, 201, resent.body);
    const second = resent.json().data as Task;
    await waitFor('the resend to deliver', async () => (await task(second.id)).delivered === 1);
    assert.deepEqual(received('+8613800003002'), [
      '【赫耳墨斯】乙您好，会员日全场八折，回T退订',
      '【赫耳墨斯】乙您好，会员日全场八折，回T退订',
    ]);
    assert.equal(received('+8613800003001').length, 1, 'the delivered number is not sent again');
    const original = await task(id);
    assert.equal(original.resentBy, second.id);
    assert.equal(original.resendable, false);
    const twice = await call('POST', `/v3/api/sms/smsTasks/${id}/resend`, owner);
    assert.equal(twice.statusCode, 409);
  });

  it('honours a handset’s opt-out reply in the next task', async () => {
    const listId = await contactList(t, ready.accountId, 'optout', [
      { phone: '+8613800004001', name: '丙' },
      { phone: '+8613800004002', name: '丁' },
    ]);
    const firstId = (
      (await create({ name: 'before', templateId, contactListIds: [listId] })).json().data as Task
    ).id;
    await waitFor('the first task to deliver', async () => (await task(firstId)).delivered === 2);
    const to = carrier.messages.find((m) => m.destination === '8613800004002')?.source as string;
    assert.ok(carrier.sendMo('8613800004002', to, 'TD'));
    await waitFor('the opt-out to be recorded', async () => {
      const row = await t.core.database.db
        .selectFrom('sms_replies')
        .select('opt_out')
        .where('phone', '=', '+8613800004002')
        .executeTakeFirst();
      return Number(row?.opt_out) === 1;
    });

    const nextId = (
      (await create({ name: 'after', templateId, contactListIds: [listId] })).json().data as Task
    ).id;
    await waitFor('the next task to finish', async () => (await task(nextId)).status === 'finished');
    await waitFor('its receipt', async () => (await task(nextId)).delivered === 1);
    assert.equal(received('+8613800004001').length, 2);
    assert.equal(received('+8613800004002').length, 1, 'nothing more to the number that opted out');
    const failed = await smsapi(t, 'status/query', ready, { phones: '13800004002', days: '1' });
    const codes = (failed.body.info.voList as { statusCode: number }[]).map((v) => v.statusCode).sort();
    assert.ok(codes.includes(430), `unsubscribed (430) in ${codes}`);
  });

  it('lets a verification code pass a task’s waiting SMS on the way to the carrier', async () => {
    await t.core.smsDelivery.stop();
    const phones = Array.from({ length: 1500 }, (_, i) => ({
      phone: `+86139${String(i).padStart(8, '0')}`,
      name: `会员${i}`,
    }));
    const listId = await contactList(t, ready.accountId, 'big', phones);
    const id = ((await create({ name: 'big', templateId, contactListIds: [listId] })).json().data as Task).id;
    await waitFor('the task to be written', async () => {
      const view = await task(id);
      return view.queued + view.skipped === 1500;
    });
    assert.deepEqual((await task(id)).skipReasons, []);
    const before = carrier.messages.length;
    const code = await smsapi(t, 'send', ready, {
      templateId: String(ready.templateId),
      phone: '13700001234',
      vars: '{"code":"4321"}',
    });
    assert.equal(code.body.statusCode, 200, JSON.stringify(code.body));
    t.core.smsDelivery.start();
    await waitFor('every SMS at the carrier', async () => carrier.messages.length >= before + 1501, {
      timeoutMs: 60_000,
    });
    const order = carrier.messages.slice(before).findIndex((m) => m.destination === '8613700001234');
    assert.ok(order >= 0 && order < 20, `the code went out as number ${order + 1} of 1501`);
  });

  it('is reached by the SMS API: sendContactListTask and queryContactListTask', async () => {
    await contactList(t, ready.accountId, 'api_list', [{ phone: '+8613800005001', name: '戊' }]);
    const sent = await smsapi(t, 'sendContactListTask', ready, {
      contactListName: 'api_list',
      taskName: 'api task',
      templateId: String(templateId),
      executeTime: '2099-01-01 08:00:00',
    });
    assert.equal(sent.body.statusCode, 200, JSON.stringify(sent.body));
    const info = sent.body.info as Record<string, unknown>;
    assert.equal(info.contactListName, 'api_list');
    assert.equal(info.status, 'waiting');
    assert.equal(info.executeTime, '2099-01-01 08:00:00');
    assert.equal(info.memberCount, 1, 'what its lists hold until it starts');

    const queried = await smsapi(t, 'queryContactListTask', ready, { taskId: String(info.taskId) }, 'zh-cn');
    assert.equal((queried.body.info as { statusDesc: string }).statusDesc, '等待发送');
    const past = await smsapi(t, 'sendContactListTask', ready, {
      contactListName: 'api_list',
      taskName: 'late',
      templateId: String(templateId),
      executeTime: '2001-01-01 08:00:00',
    });
    assert.equal(past.body.statusCode, 452);
    const missing = await smsapi(t, 'sendContactListTask', ready, {
      contactListName: 'nope',
      taskName: 'x',
      templateId: String(templateId),
    });
    assert.equal(missing.body.statusCode, 401);
    const theirs = await smsapi(t, 'queryContactListTask', ready, { taskId: '999999' });
    assert.equal(theirs.body.statusCode, 453);
  });

  it('needs the SMS sending code; another account’s task is not found', async () => {
    const list = (await call('GET', '/v3/api/sms/smsTasks', owner)).json().data as { total: number };
    assert.ok(list.total >= 5);
    const reader = await joinedMember(t, owner, 'task_reader', {
      type: 'custom',
      levels: { [P.SMS_DATA]: 'read' },
    });
    assert.equal((await call('GET', '/v3/api/sms/smsTasks', reader)).statusCode, 403);
    assert.equal((await call('GET', '/v3/api/sms/smsTasks/1', other)).statusCode, 404);
    const theirs = (await call('GET', '/v3/api/sms/smsTasks', other)).json().data as { total: number };
    assert.equal(theirs.total, 0);
  });
});

/**
 * A scheduled task across a deployment of two worker processes on one database: it starts once
 * its time has come, and each number gets its SMS once, whichever worker claimed it.
 */
describe('a scheduled SMS task with two worker processes', () => {
  let t: TestApp;
  let carrier: SmppCarrier;
  const workers: Herald[] = [];
  after(async () => {
    await Promise.allSettled(workers.map((w) => w.stop()));
    await t?.close();
    await carrier?.close();
  });

  it('fires once', async () => {
    carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 5 });
    // Every process opens the carrier's sealed password: one key for all of them.
    const key = { HERALD_SECRET_KEY: randomBytes(32).toString('base64') };
    t = await buildTestApp({ env: key });
    await t.core.smsCarriers.save({
      name: 'cmcc',
      url: `smpp://127.0.0.1:${carrier.port}`,
      systemId: 'herald',
      password: 'secret',
      sourceAddr: '10690001',
    });
    await t.core.smsCarriers.addRoute({ carrier: 'cmcc', country: 'CN', prefix: '1' });
    const owner = await createOwner(t, 'twin_owner');
    const ready = await smsReadyAccount(t, owner.ctx.accountId, 'twin_user');
    await t.core.database.db
      .updateTable('accounts')
      .set({ plan: 'paid' })
      .where('id', '=', ready.accountId)
      .execute();
    const templateId = await marketingTemplate(t, ready);
    const phones = Array.from({ length: 600 }, (_, i) => ({
      phone: `+86135${String(i).padStart(8, '0')}`,
      name: `会员${i}`,
    }));
    const listId = await contactList(t, ready.accountId, 'twins', phones);

    const config = t.core.config.database;
    const env = {
      ...key,
      DATABASE_URL: config.kind === 'sqlite' ? `sqlite:${config.file}` : config.url,
      ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
    };
    for (let i = 0; i < 2; i++) {
      const worker = await startHerald({ env, args: ['--role=worker'] });
      await worker.waitForLog((line) => line.json?.msg === 'workers started');
      workers.push(worker);
    }
    const sendAt = Date.now() + 2_000;
    const res = await injector(t)('POST', '/v3/api/sms/smsTasks', owner, {
      name: 'twins',
      templateId,
      contactListIds: [listId],
      scheduled: true,
      sendAt,
    });
    assert.equal(res.statusCode, 201, res.body);
    await waitFor('600 SMS at the carrier', async () => carrier.messages.length >= 600, {
      timeoutMs: 60_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(carrier.messages.length, 600, 'no number twice');
    assert.equal(new Set(carrier.messages.map((m) => m.destination)).size, 600);
    assert.ok(
      Math.min(...carrier.messages.map((m) => m.receivedAt.getTime())) >= sendAt,
      'nothing before its time',
    );
  });
});
