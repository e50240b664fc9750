import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { epochToZonedTime, PERMISSIONS as P } from '@herald/shared';
import { simpleParser } from 'mailparser';
import { injector } from '../api-users/fixtures.ts';
import { createApiUser, createTemplate, type Sender, uniqueTag } from '../fixtures/factory.ts';
import { testDialect } from '../helpers/database.ts';
import { type MailedApp, startMailedApp } from '../helpers/mailed-app.ts';
import { bearer, createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { multipartBody } from '../sms/sms-uploads.fixtures.ts';
import { paidSender, TASKS, type Task, timedList } from './timed-task-fixtures.ts';

const INBOX = 'inbox.test';

/**
 * Timed tasks through the console's calls (`/task/taskTemplates`): every rule of product-spec §5
 * with its message, the time checked in the zone chosen; at its time the task makes its request
 * once, its status going from not requested to request succeeded, and each member's mail arrives
 * at the loopback MX with the attachments byte for byte; a task may be changed or cancelled
 * before it starts and not after; a request the account can no longer make ends request failed
 * with the reason; another account's task is not found and a view-only teammate cannot save.
 */
describe(`Timed tasks on ${testDialect}`, () => {
  let app: MailedApp;
  let owner: SignedIn;
  let other: SignedIn;
  let f: Sender;
  let templateId = 0;
  let listId = 0;
  let call: ReturnType<typeof injector>;

  before(async () => {
    app = await startMailedApp({ domain: INBOX, env: { HERALD_DELIVERY_POLL_MS: '20' } });
    call = injector(app.t);
    owner = await createOwner(app.t, 'timed_owner');
    other = await createOwner(app.t, 'timed_other');
    f = await paidSender(app.t, owner);
    await paidSender(app.t, other);
    templateId = await createTemplate(app.t.core.database, f.accountId, {
      invokeName: 'timed_news',
      status: 'passed',
      subject: 'News for %name%',
      html: '<p>Dear %name%, your code is %code%</p>',
      templateType: 'batch',
    });
    listId = await timedList(app.t, owner, 'vip', [
      ['ann', 'Ann', 'A1'],
      ['bob', 'Bob', 'B2'],
    ]);
  });
  after(() => app?.close());

  const inZone = (ms: number, zone = 'Asia/Shanghai') => epochToZonedTime(Date.now() + ms, zone);
  const body = (over: Record<string, unknown> = {}) => ({
    name: 'Weekly news',
    fromName: 'Shop',
    from: `news@${f.domain}`,
    templateId,
    listIds: [listId],
    apiUserId: f.apiUserId,
    sendAt: inZone(3600_000),
    timeZone: 'Asia/Shanghai',
    ...over,
  });
  const upload = async (name: string, content: Buffer, who = owner, key?: string) => {
    const multipart = multipartBody(name, content);
    return app.t.app.inject({
      method: 'POST',
      url: `${TASKS}/upload${key ? `?key=${key}` : ''}`,
      headers: { ...bearer(who.token), ...multipart.headers, lang: 'en' },
      payload: multipart.payload,
    });
  };
  const uploaded = async (name: string, content: Buffer) => {
    const res = await upload(name, content);
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.id as number;
  };
  const messageOf = (res: { json(): unknown }) => {
    const answer = res.json() as { message: string; fields?: { message: string }[] };
    return answer.fields?.[0]?.message ?? answer.message;
  };
  const task = async (id: number, who = owner): Promise<Task> =>
    (await call('GET', `${TASKS}/${id}`, who)).json().data as Task;

  it('checks every rule of the form with its message', async () => {
    const theirList = await timedList(app.t, other, 'theirs', [['zed', 'Zed', 'Z']]);
    const trigger = await createApiUser(app.t.core.database, f.accountId, { emailType: 'trigger' });
    const draft = await createTemplate(app.t.core.database, f.accountId, {
      invokeName: 'timed_draft',
      status: 'unsubmitted',
    });
    // The same wall-clock time is two hours ahead in New York and hours past in Beijing.
    const utcPlus2 = new Date(Date.now() + 2 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [body({ name: '' }), 400, /task name/],
      [body({ name: 'x'.repeat(65) }), 400, /task name/],
      [body({ fromName: '' }), 400, /sender name/],
      [body({ from: '' }), 400, /valid sender email/],
      [body({ from: 'not-an-address' }), 400, /valid sender email/],
      [body({ replyTo: 'nope' }), 400, /reply-to/],
      [body({ templateId: undefined }), 400, /email template/],
      [body({ listIds: [] }), 400, /1 to 5 address lists/],
      [body({ listIds: [1, 2, 3, 4, 5, 6] }), 400, /1 to 5 address lists/],
      [body({ apiUserId: undefined }), 400, /API_USER/],
      [body({ sendAt: '' }), 400, /execution time/],
      [body({ sendAt: '2026-02-30 10:00' }), 400, /execution time/],
      [body({ timeZone: 'Mars/Olympus' }), 400, /time zone/],
      [body({ sendAt: inZone(-120_000) }), 400, /Planned time cannot be before the current time/],
      [body({ sendAt: utcPlus2 }), 400, /Planned time cannot be before the current time/],
      [body({ attachmentIds: Array.from({ length: 11 }, (_, i) => i + 1) }), 400, /At most 10 attachments/],
      [body({ listIds: [theirList] }), 404, /list does not exist/],
      [body({ templateId: templateId + 999 }), 422, /template does not exist/],
      [body({ templateId: draft }), 422, /template/i],
      [body({ apiUserId: trigger.id }), 422, /batch API_USER/],
      [body({ from: 'news@elsewhere.example.org' }), 422, /elsewhere\.example\.org/],
      [body({ attachmentIds: [999_999] }), 404, /attachment does not exist/],
    ];
    for (const [payload, status, message] of cases) {
      const res = await call('POST', TASKS, owner, payload);
      assert.equal(res.statusCode, status, `${JSON.stringify(payload)}: ${res.body}`);
      assert.match(messageOf(res), message, JSON.stringify(payload));
    }
    const newYork = await call(
      'POST',
      TASKS,
      owner,
      body({ sendAt: utcPlus2, timeZone: 'America/New_York' }),
    );
    assert.equal(newYork.statusCode, 201, newYork.body);
    assert.equal((newYork.json().data as Task).status, 'waiting');
    const zh = await call('POST', TASKS, owner, body({ sendAt: inZone(-120_000) }), 'zh-cn');
    assert.match(messageOf(zh), /计划时间不能早于当前时间/);
  });

  it('refuses empty, executable and oversized attachments, and shows upload progress', async () => {
    const empty = await upload('notes.txt', Buffer.alloc(0));
    assert.equal(empty.statusCode, 400);
    assert.equal(messageOf(empty), 'Uploaded file is empty');
    for (const name of ['run.exe', 'app.js', 'setup.sh', 'Main.cs', 'COMMAND.COM']) {
      const res = await upload(name, Buffer.from('echo hi'));
      assert.equal(res.statusCode, 400, name);
      assert.match(messageOf(res), /js, com, exe, sh and cs files are not allowed/, name);
    }
    const tooBig = await upload('huge.bin', Buffer.alloc(50 * 1024 * 1024 + 1, 1));
    assert.equal(tooBig.statusCode, 400);
    assert.equal(messageOf(tooBig), 'The total file size should not exceed 50M');

    const key = `k${randomBytes(8).toString('hex')}`;
    const half = Buffer.alloc(26 * 1024 * 1024, 2);
    const first = await upload('part1.bin', half, owner, key);
    assert.equal(first.statusCode, 201, first.body);
    const progress = (await call('GET', `${TASKS}/upload/progress?key=${key}`, owner)).json().data;
    assert.deepEqual(
      { received: progress.received, done: progress.done },
      { received: half.length, done: true },
    );
    const theirs = (await call('GET', `${TASKS}/upload/progress?key=${key}`, other)).json().data;
    assert.equal(theirs.received, 0, 'another account does not see the upload');
    const second = await uploaded('part2.bin', half);
    const res = await call('POST', TASKS, owner, body({ attachmentIds: [first.json().data.id, second] }));
    assert.equal(res.statusCode, 400);
    assert.equal(messageOf(res), 'The total file size should not exceed 50M');
    const mine = await uploaded('mine.txt', Buffer.from('mine'));
    const stolen = await call('POST', TASKS, other, body({ attachmentIds: [mine] }));
    assert.equal(stolen.statusCode, 404, 'another account cannot name my upload');
  });

  it('fires at its time: not requested, then request succeeded, each member mailed with the attachments', async () => {
    const pdf = randomBytes(200_000);
    const csv = Buffer.from('名字,code\nAnn,A1\n', 'utf8');
    const files = [await uploaded('report.pdf', pdf), await uploaded('会员.csv', csv)];
    const res = await call(
      'POST',
      TASKS,
      owner,
      body({ name: 'Fires', sendAt: inZone(2_500), attachmentIds: files, tag: 'spring' }),
    );
    assert.equal(res.statusCode, 201, res.body);
    const made = res.json().data as Task;
    assert.equal(made.status, 'waiting');
    assert.equal(made.attachments.length, 2);
    assert.equal(made.tag, 'spring');
    await waitFor('the request made', async () => (await task(made.id)).status === 'requested', {
      timeoutMs: 20_000,
    });
    const ann = await app.mailTo(`ann@${INBOX}`);
    const bob = await app.mailTo(`bob@${INBOX}`);
    assert.ok(ann.receivedAt.getTime() >= made.sendAtMs, 'nothing before its time');
    assert.equal(ann.subject, 'News for Ann');
    const parsed = await simpleParser(ann.bytes);
    assert.match(parsed.html || '', /Dear Ann, your code is A1/);
    assert.match(parsed.from?.text ?? '', /Shop/);
    const got = new Map(parsed.attachments.map((a) => [a.filename, a.content]));
    assert.ok(got.get('report.pdf')?.equals(pdf), 'the pdf arrives byte for byte');
    assert.ok(got.get('会员.csv')?.equals(csv), 'the csv arrives byte for byte');
    assert.equal((await simpleParser(bob.bytes)).attachments.length, 2);
    await waitFor('the progress counted', async () => (await task(made.id)).progress.delivered === 2);
    const done = await task(made.id);
    assert.equal(done.sends.length, 1);
    assert.equal(done.progress.memberTotal, 2);
    assert.equal(done.changeable, false);

    const edit = await call('PUT', `${TASKS}/${made.id}`, owner, body({ name: 'Too late' }));
    assert.equal(edit.statusCode, 409);
    assert.match(messageOf(edit), /can no longer be changed or cancelled/);
    assert.equal((await call('POST', `${TASKS}/${made.id}/cancel`, owner)).statusCode, 409);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(app.mx.messages.filter((m) => m.rcptTo.includes(`ann@${INBOX}`)).length, 1, 'once');
  });

  it('is changed and cancelled before it starts, and then never sends', async () => {
    const res = await call('POST', TASKS, owner, body({ name: 'Later', sendAt: inZone(3_000) }));
    const made = res.json().data as Task;
    const edited = await call(
      'PUT',
      `${TASKS}/${made.id}`,
      owner,
      body({ name: 'Renamed', sendAt: inZone(4 * 3600_000, 'Europe/London'), timeZone: 'Europe/London' }),
    );
    assert.equal(edited.statusCode, 200, edited.body);
    const view = edited.json().data as Task;
    assert.equal(view.name, 'Renamed');
    assert.equal(view.timeZone, 'Europe/London');
    const cancelled = await call('POST', `${TASKS}/${made.id}/cancel`, owner);
    assert.equal(cancelled.statusCode, 200);
    assert.equal((cancelled.json().data as Task).status, 'cancelled');
    const again = await call('PUT', `${TASKS}/${made.id}`, owner, body({ name: 'Back' }));
    assert.equal(again.statusCode, 409);
    const list = (await call('GET', `${TASKS}?status=cancelled`, owner)).json().data;
    assert.ok(list.list.some((t: Task) => t.id === made.id));
    assert.equal((await call('DELETE', `${TASKS}/${made.id}`, owner)).statusCode, 204);
    assert.equal((await call('GET', `${TASKS}/${made.id}`, owner)).statusCode, 404);
  });

  it('ends request failed with the reason when its template was withdrawn', async () => {
    const withdrawn = await createTemplate(app.t.core.database, f.accountId, {
      invokeName: `timed_gone${uniqueTag()}`,
      status: 'passed',
      templateType: 'batch',
    });
    const res = await call('POST', TASKS, owner, body({ templateId: withdrawn, sendAt: inZone(1_500) }));
    assert.equal(res.statusCode, 201, res.body);
    const made = res.json().data as Task;
    await app.t.core.database.db
      .updateTable('email_templates')
      .set({ status: 'reviewing' })
      .where('id', '=', withdrawn)
      .execute();
    await waitFor('the request failed', async () => (await task(made.id)).status === 'failed', {
      timeoutMs: 20_000,
    });
    const failed = await task(made.id);
    assert.match(failed.message ?? '', /template/i);
    assert.equal(failed.sends.length, 0);
  });

  it('keeps tasks to their account and saving to those who may send', async () => {
    const made = (await call('POST', TASKS, owner, body({ name: 'Mine' }))).json().data as Task;
    for (const [method, url] of [
      ['GET', `${TASKS}/${made.id}`],
      ['PUT', `${TASKS}/${made.id}`],
      ['POST', `${TASKS}/${made.id}/cancel`],
      ['DELETE', `${TASKS}/${made.id}`],
    ] as const) {
      const res = await call(method, url, other, method === 'PUT' ? body() : undefined);
      assert.equal(res.statusCode, 404, `${method} ${url}`);
    }
    const theirs = (await call('GET', TASKS, other)).json().data;
    assert.ok(!theirs.list.some((t: Task) => t.id === made.id));

    const reader = await joinedMember(app.t, owner, `tr_${uniqueTag()}`, {
      type: 'custom',
      levels: { [P.EMAIL_SEND]: 'read' },
    });
    assert.equal((await call('GET', TASKS, reader)).statusCode, 200);
    assert.equal((await call('POST', TASKS, reader, body())).statusCode, 403);
    assert.equal((await call('POST', `${TASKS}/${made.id}/cancel`, reader)).statusCode, 403);
    const outsider = await joinedMember(app.t, owner, `tn_${uniqueTag()}`, {
      type: 'custom',
      levels: { [P.EMAIL_RESPONSE]: 'read' },
    });
    assert.equal((await call('GET', TASKS, outsider)).statusCode, 403);
  });

  it('shows each user only their own tasks when taskPrivate is on', async () => {
    const mate = await joinedMember(app.t, owner, `tm_${uniqueTag()}`, {
      type: 'custom',
      levels: { [P.EMAIL_SEND]: 'full' },
    });
    const made = (await call('POST', TASKS, owner, body({ name: 'Private' }))).json().data as Task;
    assert.equal((await call('GET', `${TASKS}/${made.id}`, mate)).statusCode, 200);
    await app.t.core.timedTasks.setTaskPrivate(owner.ctx, true);
    try {
      assert.equal((await call('GET', '/v3/api/systemParam/taskPrivate', mate)).json().data, true);
      assert.equal((await call('GET', `${TASKS}/${made.id}`, mate)).statusCode, 404);
      assert.equal((await call('GET', `${TASKS}/${made.id}`, owner)).statusCode, 200);
    } finally {
      await app.t.core.timedTasks.setTaskPrivate(owner.ctx, false);
    }
  });

  it('is open to paid accounts only', async () => {
    const free = await createOwner(app.t, `tf_${uniqueTag()}`);
    const page = await call('GET', TASKS, free);
    assert.equal(page.statusCode, 200);
    assert.deepEqual(page.json().data, { list: [], total: 0, paid: false });
    const res = await call('POST', TASKS, free, body());
    assert.equal(res.statusCode, 403);
    assert.match(messageOf(res), /paid/);
    assert.equal((await upload('a.txt', Buffer.from('a'), free)).statusCode, 403);
  });
});
