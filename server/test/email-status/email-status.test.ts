import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSender, createUser, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer } from '../helpers/members.ts';
import { listen, postForm } from '../send/send-client.ts';

const DAY = 86_400_000;

/**
 * Email status: mail accepted through the real mail/send path, outcomes written to the recipient
 * rows and the send log as the delivery pipeline records them, read back through the console's
 * `/data/emailStatus` and SendCloud's `data/emailStatus` (plain form posts).
 */
describe('email status', () => {
  let t: TestApp;
  let base: string;
  let f: Sender;
  let other: Sender;
  let token: string;
  let otherToken: string;
  let ids: string[];

  before(async () => {
    t = await buildTestApp();
    base = await listen(t);
    f = await createSender(t.core.database);
    other = await createSender(t.core.database);
    token = await sessionFor(f.accountId, 'es_owner');
    otherToken = await sessionFor(other.accountId, 'es_other');
    const sent = await postForm(base, 'mail/send', {
      apiUser: f.apiUser,
      apiKey: f.apiKey,
      from: `news@${f.domain}`,
      to: 'ok@example.org;gone@example.net;later@example.com',
      subject: 'Status',
      html: '<p>Hi</p>',
      labelId: String(f.labelId),
    });
    assert.equal(sent.result, true, sent.message);
    ids = sent.info.emailIdList ?? [];
    await postForm(base, 'mail/send', {
      apiUser: other.apiUser,
      apiKey: other.apiKey,
      from: `news@${other.domain}`,
      to: 'ok@example.org',
      subject: 'Other',
      html: '<p>Hi</p>',
    });
    await outcome(ids[0] ?? '', 'delivered', null, null, '250 2.0.0 OK queued', [
      ['deferred', null, null, '451 4.7.1 try later'],
      ['delivered', null, null, '250 2.0.0 OK queued'],
    ]);
    await outcome(ids[1] ?? '', 'invalid', 406, 'not_exist', '550 5.1.1 user unknown', [
      ['invalid', 'not_exist', 406, '550 5.1.1 user unknown'],
    ]);
  });
  after(() => t?.close());

  async function sessionFor(accountId: number, name: string): Promise<string> {
    const userId = await createUser(t.core.database, accountId, { username: name });
    return t.core.sessions.create({ accountId, userId });
  }

  async function outcome(
    emailId: string,
    status: string,
    subStatus: number | null,
    reason: string | null,
    reply: string,
    attempts: [string, string | null, number | null, string][],
  ) {
    const db = t.core.database.db;
    const row = await db
      .selectFrom('message_recipients')
      .select(['id', 'created_at'])
      .where('email_id', '=', emailId)
      .executeTakeFirstOrThrow();
    const at = Number(row.created_at);
    await db
      .updateTable('message_recipients')
      .set({
        status,
        sub_status: subStatus,
        reason,
        last_reply: reply,
        updated_at: at + 5000,
        attempts: attempts.length,
      })
      .where('id', '=', row.id)
      .execute();
    let n = 0;
    for (const [out, r, sub, text] of attempts) {
      n += 1;
      await db
        .insertInto('recipient_attempts')
        .values({
          recipient_id: Number(row.id),
          account_id: f.accountId,
          attempt: n,
          at: at + n * 1000,
          outcome: out as 'delivered',
          category: r,
          reason: r,
          sub_status: sub,
          reply: text,
          mx_host: 'mx.example.org',
          mx_ip: '127.0.0.1',
          tls: 1,
          duration_ms: 12,
        })
        .execute();
    }
  }

  const now = () => Date.now();
  const get = (query: string, who = token, lang = 'en') =>
    t.app.inject({
      method: 'GET',
      url: `/v3/api/data/emailStatus?${query}`,
      headers: { ...bearer(who), lang },
    });
  const range = () => `startTime=${now() - DAY}&endTime=${now() + 60_000}`;

  it('lists every recipient with status, reason, sub-status and the send log', async () => {
    const res = await get(range());
    assert.equal(res.statusCode, 200, res.body);
    const { data, total } = res.json();
    assert.equal(total, 3);
    const byId = new Map(data.map((r: { emailId: string }) => [r.emailId, r]));
    const ok = byId.get(ids[0]) as Record<string, unknown> & {
      sendLog: { event: string; reply: string | null }[];
    };
    assert.equal(ok.status, 'delivered');
    assert.equal(ok.statusCode, 1);
    assert.equal(ok.apiUser, f.apiUser);
    assert.equal(ok.subject, 'Status');
    assert.deepEqual(
      ok.sendLog.map((e) => [e.event, e.reply]),
      [
        ['request', null],
        ['deferred', '451 4.7.1 try later'],
        ['delivered', '250 2.0.0 OK queued'],
      ],
    );
    const gone = byId.get(ids[1]) as Record<string, unknown>;
    assert.deepEqual(
      [gone.status, gone.statusCode, gone.subStatus, gone.reason],
      ['invalid', 4, 406, 'not_exist'],
    );
    const later = byId.get(ids[2]) as Record<string, unknown>;
    assert.deepEqual([later.status, later.statusCode], ['requested', 18]);
  });

  it('filters by address, emailId, API_USER, label and status, and pages', async () => {
    const pick = async (q: string) => (await get(`${range()}&${q}`)).json();
    assert.deepEqual(
      (await pick('email=gone@example.net')).data.map((r: { emailId: string }) => r.emailId),
      [ids[1]],
    );
    assert.deepEqual(
      (await pick(`emailId=${encodeURIComponent(ids[2] ?? '')}`)).data.map(
        (r: { emailId: string }) => r.emailId,
      ),
      [ids[2]],
    );
    assert.equal((await pick(`apiUserId=${f.apiUserId}`)).total, 3);
    assert.equal(
      (await pick(`apiUserId=${other.apiUserId}`)).total,
      0,
      'another account’s API_USER finds nothing',
    );
    assert.equal((await pick(`labelId=${f.labelId}`)).total, 3);
    assert.equal((await pick('status=invalid')).total, 1);
    const page = await pick('page=2&pageSize=2');
    assert.equal(page.data.length, 1);
    assert.equal(page.total, 3);
    const old = await get(`startTime=${now() - 20 * DAY}&endTime=${now() - 10 * DAY}`);
    assert.equal(old.json().total, 0);
  });

  it('refuses a span over one month, in both languages, and asks for the range', async () => {
    const long = `startTime=${now() - 32 * DAY}&endTime=${now()}`;
    const en = await get(long);
    assert.equal(en.statusCode, 400);
    assert.equal(en.json().fields?.[0]?.message, 'Query time span cannot exceed one month');
    const zh = await get(long, token, 'zh-cn');
    assert.equal(zh.json().fields?.[0]?.message, '查询时间跨度不能超过一个月');
    const end = now(); // one clock reading: two would make the span a few ms over a month
    assert.equal((await get(`startTime=${end - 31 * DAY}&endTime=${end}`)).statusCode, 200);
    const reversed = await get(`startTime=${now()}&endTime=${now() - DAY}`);
    assert.equal(reversed.json().fields?.[0]?.message, 'The end time cannot be earlier than the start time');
    assert.equal((await get('')).statusCode, 400);
  });

  it('shows another account none of these recipients', async () => {
    const res = await get(range(), otherToken);
    assert.equal(res.json().total, 1);
    assert.equal(res.json().data[0].subject, 'Other');
  });

  it('answers SendCloud data/emailStatus in the types of its sample, with Aurora numbers and the whole log beside', async () => {
    const body = await postForm(base, 'data/emailStatus', {
      apiUser: f.apiUser,
      apiKey: f.apiKey,
      days: '1',
    });
    assert.equal(body.result, true, body.message);
    const info = body.info as { total: string; voListSize: number; voList: Record<string, unknown>[] };
    assert.equal(info.total, '3');
    assert.equal(info.voListSize, 3);
    const gone = info.voList.find((v) => v.emailId === ids[1]) as Record<string, unknown> & {
      sendLogs: { event: string }[];
    };
    assert.equal(gone.status, '无效邮件');
    assert.equal(gone.statusNum, 4);
    assert.equal(gone.subStatus, 406);
    assert.equal(typeof gone.sendLog, 'string');
    assert.notEqual(gone.sendLog, '');
    assert.equal(gone.recipients, 'gone@example.net');
    assert.equal(gone.apiUser, f.apiUser);
    assert.match(String(gone.requestTime), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.deepEqual(
      gone.sendLogs.map((e) => e.event),
      ['request', 'invalid'],
    );

    const some = await postForm(base, 'data/emailStatus', {
      apiUser: f.apiUser,
      apiKey: f.apiKey,
      emailIds: `${ids[0]};${ids[2]}`,
      apiUserList: f.apiUser,
      labelId: String(f.labelId),
      limit: '1',
    });
    const s = some.info as { total: string; voListSize: number };
    assert.equal(s.total, '2');
    assert.equal(s.voListSize, 1);

    const day = (ms: number) => {
      const d = new Date(ms);
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    };
    const tooLong = await postForm(
      base,
      'data/emailStatus',
      { apiUser: f.apiUser, apiKey: f.apiKey, startDate: day(now() - 40 * DAY), endDate: day(now()) },
      'en',
    );
    assert.equal(tooLong.result, false);
    assert.equal(tooLong.message, 'Query time span cannot exceed one month');
    const zh = await postForm(base, 'data/emailStatus', { apiUser: f.apiUser, apiKey: f.apiKey, days: '40' });
    assert.equal(zh.message, '查询时间跨度不能超过一个月');
    const otherSees = await postForm(base, 'data/emailStatus', {
      apiUser: other.apiUser,
      apiKey: other.apiKey,
      days: '1',
    });
    assert.equal((otherSees.info as { total: string }).total, '1');
  });
});
