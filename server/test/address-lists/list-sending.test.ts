import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ReceivedMail } from '@herald/test-peers';
import { createSender, createTemplate, type Sender } from '../fixtures/factory.ts';
import { testDialect } from '../helpers/database.ts';
import { type MailedApp, startMailedApp } from '../helpers/mailed-app.ts';
import { waitFor } from '../helpers/wait.ts';
import { listen } from '../send/send-client.ts';

// biome-ignore lint/suspicious/noExplicitAny: envelopes are loose JSON, read field by field in assertions
type Loose = Record<string, any>;
const INBOX = 'inbox.test';

/**
 * Sending to address lists as a SendCloud client does it: `mail/send` and `mail/sendtemplate`
 * with `useAddressList=true` answered 40821 with the task ids, each member's mail arriving at
 * the loopback MX with the member's name and variables, suppressed and unsubscribed members
 * recorded and never mailed, `mail/taskinfo` following the task, transactional mail claimed
 * ahead of a waiting list task's, and another account's lists and tasks not found.
 */
describe(`Sending to address lists on ${testDialect}`, () => {
  let app: MailedApp;
  let base: string;
  let f: Sender;
  let theirs: Sender;
  let domain = '';

  before(async () => {
    // One delivery worker claiming 5 recipients at a time: the order of its claims shows in the
    // order mail arrives.
    app = await startMailedApp({
      domain: INBOX,
      deferWorkers: true,
      env: { HERALD_DELIVERY_BATCH: '5', HERALD_DELIVERY_CONCURRENCY: '5', HERALD_DELIVERY_POLL_MS: '20' },
    });
    base = await listen(app.t);
    f = await createSender(app.t.core.database, { plan: 'paid', emailType: 'batch', domainStatus: 'usable' });
    theirs = await createSender(app.t.core.database, {
      plan: 'paid',
      emailType: 'batch',
      domain: 'their-mail.example.com',
    });
    domain = app.t.core.addressLists.domain;
  });
  after(() => app?.close());

  const v2 = async (action: string, fields: Record<string, string>, who = f, lang = 'en') => {
    const response = await fetch(`${base}/apiv2/${action}`, {
      method: 'POST',
      headers: { 'accept-language': lang },
      body: new URLSearchParams({ apiUser: who.apiUser, apiKey: who.apiKey, ...fields }),
    });
    assert.equal(response.status, 200, action);
    return (await response.json()) as Loose;
  };

  /** A list with these members (address local part, name, code). */
  async function makeList(prefix: string, members: [string, string, string][], who = f) {
    const made = await v2('addresslist/add', { address: `${prefix}@${domain}`, name: prefix }, who);
    assert.equal(made.statusCode, 200, made.message);
    for (let i = 0; i < members.length; i += 100) {
      const part = members.slice(i, i + 100);
      const added = await v2(
        'addressmember/add',
        {
          address: `${prefix}@${domain}`,
          members: part.map(([local]) => `${local}@${INBOX}`).join(';'),
          names: part.map(([, name]) => name).join(';'),
          vars: part.map(([, , code]) => JSON.stringify({ code })).join(';'),
        },
        who,
      );
      assert.equal(added.statusCode, 200, added.message);
    }
    return `${prefix}@${domain}`;
  }

  const taskinfo = (id: number, who = f) => v2('mail/taskinfo', { maillistTaskId: String(id) }, who);
  const arrivals = () => app.mx.messages.flatMap((m) => m.rcptTo);

  it('answers 40821 at once, mails every member with their variables, and puts transactional mail first', async () => {
    const crowd: [string, string, string][] = Array.from({ length: 40 }, (_, i) => {
      const n = String(i).padStart(2, '0');
      return [`m${n}`, `Member ${n}`, `C-${n}`];
    });
    const alias = await makeList('crowd', crowd);

    const sent = await v2(
      'mail/send',
      {
        useAddressList: 'true',
        to: alias,
        from: `news@${f.domain}`,
        subject: 'Hello %name%',
        html: '<p>Dear %name%, your code is %code%</p>',
        cc: `cc-person@${INBOX}`,
        bcc: `bcc-person@${INBOX}`,
        xsmtpapi: JSON.stringify({ to: [`x-person@${INBOX}`] }),
      },
      f,
      'zh-cn',
    );
    assert.deepEqual([sent.result, sent.statusCode, sent.message], [true, 40821, '地址列表任务创建成功']);
    const [taskId] = sent.info.maillistTaskId as number[];
    assert.ok(typeof taskId === 'number');
    assert.deepEqual(Object.keys(sent.info), ['maillistTaskId']);

    const waiting = (await taskinfo(taskId)).info.data;
    assert.equal(waiting.status, 'waiting');
    assert.equal(waiting.addressList, alias);
    assert.equal(waiting.apiUser, f.apiUser);
    assert.match(waiting.gmtCreated, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    // The task's mail is written (a worker's runner would do this at once) and waits for delivery.
    assert.equal(await app.t.core.mailListTasks.runDue('test-runner', () => false), true);
    const written = (await taskinfo(taskId)).info.data;
    assert.deepEqual(
      [written.status, written.memberCount, written.queued, written.waiting, written.delivered],
      ['sending', 40, 40, 40, 0],
    );

    // A transactional mail sent now is claimed before the 40 waiting ones.
    const urgent = await v2('mail/send', {
      from: `alerts@${f.domain}`,
      to: `urgent@${INBOX}`,
      subject: 'Your login code',
      html: '<p>123456</p>',
    });
    assert.equal(urgent.statusCode, 200, urgent.message);
    await app.startWorkers();
    await waitFor('every mail at the MX', () => arrivals().length >= 41, { timeoutMs: 30_000 });
    assert.ok(
      arrivals().indexOf(`urgent@${INBOX}`) < 5,
      `the transactional mail arrived at position ${arrivals().indexOf(`urgent@${INBOX}`)}`,
    );

    for (const [local, name, code] of crowd) {
      const mail = (await app.mailTo(`${local}@${INBOX}`)) as ReceivedMail;
      assert.equal(mail.subject, `Hello ${name}`);
      assert.match(mail.raw, new RegExp(`Dear ${name}, your code is ${code}`));
      assert.deepEqual(mail.rcptTo, [`${local}@${INBOX}`]);
    }
    for (const ignored of ['cc-person', 'bcc-person', 'x-person']) {
      assert.ok(!arrivals().includes(`${ignored}@${INBOX}`), `${ignored} got mail`);
    }

    const done = await waitFor('the task finished', async () => {
      const data = (await taskinfo(taskId)).info.data;
      return data.status === 'finished' ? data : undefined;
    });
    assert.deepEqual(
      [done.memberCount, done.queued, done.waiting, done.delivered, done.invalid],
      [40, 40, 0, 40, 0],
    );
  });

  it('sends a template to two lists, skipping suppressed and unsubscribed members and recording why', async () => {
    await createTemplate(app.t.core.database, f.accountId, {
      invokeName: 'club_news',
      status: 'passed',
      templateType: 'batch',
      subject: 'News for %name%',
      html: '<p>%name%: %code%</p>',
    });
    const club = await makeList('club', [
      ['keep', 'Keeper', 'K1'],
      ['gone', 'Gone', 'G1'],
      ['blocked', 'Blocked', 'B1'],
    ]);
    const friends = await makeList('friends', [['pal', 'Pal', 'P1']]);
    const unsubscribed = await v2('unsubscribe/add', { email: `gone@${INBOX}` });
    assert.equal(unsubscribed.statusCode, 200, unsubscribed.message);
    await app.t.core.suppressionLists.add({ accountId: f.accountId }, 'user_defined', [`blocked@${INBOX}`]);

    const sent = await v2('mail/sendtemplate', {
      useAddressList: 'true',
      to: `${club};${friends}`,
      from: `news@${f.domain}`,
      templateInvokeName: 'club_news',
    });
    assert.deepEqual(
      [sent.result, sent.statusCode, sent.message],
      [true, 40821, 'The address list task was created'],
    );
    const [clubTask, friendsTask] = sent.info.maillistTaskId as number[];
    assert.equal(sent.info.maillistTaskId.length, 2);

    const keep = await app.mailTo(`keep@${INBOX}`);
    assert.equal(keep.subject, 'News for Keeper');
    assert.match(keep.raw, /Keeper: K1/);
    assert.match((await app.mailTo(`pal@${INBOX}`)).raw, /Pal: P1/);

    const club$ = await waitFor('the club task finished', async () => {
      const data = (await taskinfo(clubTask as number)).info.data;
      return data.status === 'finished' ? data : undefined;
    });
    assert.deepEqual(
      [club$.memberCount, club$.delivered, club$.invalid, club$.unsubscribed, club$.blocked],
      [3, 1, 2, 1, 1],
    );
    assert.ok(!arrivals().includes(`gone@${INBOX}`));
    assert.ok(!arrivals().includes(`blocked@${INBOX}`));
    assert.equal((await taskinfo(friendsTask as number)).info.data.addressList, friends);

    // Recorded as such: each skipped member's mail status says why.
    for (const [local, subStatus] of [
      ['gone', 402],
      ['blocked', 401],
    ] as const) {
      const status = await v2('data/emailStatus', { email: `${local}@${INBOX}` });
      assert.equal(status.statusCode, 200, status.message);
      const rows = (status.info.voList ?? []) as Loose[];
      assert.deepEqual(
        rows.map((r) => [r.recipients, r.subStatus]),
        [[`${local}@${INBOX}`, subStatus]],
      );
    }
  });

  it('refuses trigger API_USERs, free accounts, unknown lists and more than 5 lists with their codes', async () => {
    const trigger = await createSender(app.t.core.database, { plan: 'paid', emailType: 'trigger' });
    const free = await createSender(app.t.core.database, { plan: 'free', emailType: 'batch' });
    const alias = await makeList('refusals', [['r1', 'R', 'R1']]);
    const send = (who: Sender, to: string, lang = 'en') =>
      v2(
        'mail/send',
        { useAddressList: 'true', to, from: `news@${who.domain}`, subject: 'Hi', html: '<p>Hi</p>' },
        who,
        lang,
      );

    const byTrigger = await send(trigger, alias, 'zh-cn');
    assert.deepEqual([byTrigger.result, byTrigger.statusCode], [false, 40820]);
    assert.equal(byTrigger.message, '此用户没有使用地址列表的权限');
    const byFree = await send(free, alias);
    assert.deepEqual([byFree.statusCode, byFree.message], [40820, 'The function is open only to paid users']);
    const unknown = await send(f, `nobody@${domain}`, 'zh-cn');
    assert.deepEqual(
      [unknown.statusCode, unknown.message],
      [40863, `to中有不存在的地址列表. 参数to: nobody@${domain}`],
    );
    const six = Array.from({ length: 6 }, (_, i) => `l${i}@${domain}`).join(';');
    const tooMany = await send(f, six);
    assert.deepEqual([tooMany.statusCode, tooMany.message], [40864, 'At most 5 address lists in "to"']);
    const noContent = await v2('mail/send', {
      useAddressList: 'true',
      to: alias,
      from: `news@${f.domain}`,
      subject: 'Hi',
    });
    assert.equal(noContent.result, false);
    assert.notEqual(noContent.statusCode, 40821);
  });

  it('answers a repeated sendRequestId within the hour with the tasks of the first call, making none', async () => {
    const alias = await makeList('repeat', [['r1', 'Repeat One', 'R-1']]);
    const call = () =>
      v2('mail/send', {
        useAddressList: 'true',
        to: alias,
        from: `news@${f.domain}`,
        subject: 'Once',
        html: '<p>once</p>',
        sendRequestId: 'list-once-1',
      });
    const [first, again, third] = [await call(), await call(), await call()];
    assert.equal(first.statusCode, 40821, first.message);
    assert.deepEqual(again.info.maillistTaskId, first.info.maillistTaskId);
    assert.deepEqual(third.info.maillistTaskId, first.info.maillistTaskId);
    const racing = await Promise.all(
      [1, 2, 3].map(() =>
        v2('mail/send', {
          useAddressList: 'true',
          to: alias,
          from: `news@${f.domain}`,
          subject: 'Race',
          html: '<p>race</p>',
          sendRequestId: 'list-race-1',
        }),
      ),
    );
    const ids = new Set(racing.map((r) => JSON.stringify(r.info.maillistTaskId)));
    assert.equal(ids.size, 1, 'three racing calls with one key answered one set of tasks');
    const tasks = await app.t.core.database.db
      .selectFrom('mail_list_tasks')
      .select('id')
      .where('account_id', '=', f.accountId)
      .where('list_address', '=', alias)
      .execute();
    assert.equal(tasks.length, 2, 'one task per distinct sendRequestId');
  });

  it("keeps accounts apart: another account's list is unknown and its task not found", async () => {
    const theirList = await makeList('theirs', [['t1', 'T', 'T1']], theirs);
    const mine = await v2('mail/send', {
      useAddressList: 'true',
      to: theirList,
      from: `news@${f.domain}`,
      subject: 'Hi',
      html: '<p>Hi</p>',
    });
    assert.equal(mine.statusCode, 40863);

    const theirSend = await v2(
      'mail/send',
      {
        useAddressList: 'true',
        to: theirList,
        from: `news@${theirs.domain}`,
        subject: 'Hi',
        html: '<p>Hi</p>',
      },
      theirs,
    );
    assert.equal(theirSend.statusCode, 40821, theirSend.message);
    const [id] = theirSend.info.maillistTaskId as number[];
    const peek = await taskinfo(id as number, f);
    assert.deepEqual([peek.result, peek.statusCode], [false, 404]);
    assert.equal(peek.message, 'The address list task does not exist');
    assert.equal((await taskinfo(id as number, theirs)).info.data.addressList, theirList);
  });

  it('answers v1 mail.send with use_maillist with the task ids', async () => {
    const alias = await makeList('legacy', [['v1', 'Vee', 'V1']]);
    const response = await fetch(`${base}/webapi/mail.send.json`, {
      method: 'POST',
      body: new URLSearchParams({
        api_user: f.apiUser,
        api_key: f.apiKey,
        use_maillist: 'true',
        to: alias,
        from: `news@${f.domain}`,
        subject: 'Hello %name%',
        html: '<p>%code%</p>',
      }),
    });
    const body = (await response.json()) as Loose;
    assert.equal(body.message, 'success');
    assert.equal(body.maillist_task_id.length, 1);
    const mail = await app.mailTo(`v1@${INBOX}`);
    assert.equal(mail.subject, 'Hello Vee');
    assert.match(mail.raw, /V1/);
  });
});
