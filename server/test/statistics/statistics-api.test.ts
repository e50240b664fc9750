import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addDays, addMonths, PERMISSIONS as P, statDay } from '@herald/shared';
import { apiv2, type Inject, injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { joinedMember } from '../helpers/members.ts';
import { createQueueAccount, type QueueAccount, sendMail } from '../queues/queue-fixtures.ts';

/**
 * The data centre's console API (`/v3/api/stat/*`, `/user/UserReputationDetail`) and the
 * SendCloud-compatible statday/stathour/invalidstat: mail accepted through /apiv2/mail/send, its
 * outcomes, opens and clicks appended to the event log as the pipeline and tracking do, the
 * rollups brought up to date; then what each caller is shown, what ranges are refused, and
 * that another account sees none of it.
 */
describe('statistics API', () => {
  let t: TestApp;
  let call: Inject;
  let a: QueueAccount;
  let b: QueueAccount;
  const today = statDay(Date.now());

  before(async () => {
    t = await buildTestApp();
    call = injector(t);
    a = await createQueueAccount(t, 'stats_a');
    b = await createQueueAccount(t, 'stats_b');
    // Paid: the anti-bombing case sends more than a free account's 10 a day.
    await t.core.database.db
      .updateTable('accounts')
      .set({ plan: 'paid' })
      .where('id', '=', a.accountId)
      .execute();
    const emailIds = await sendMail(t, a, ['u1@qq.com', 'u2@qq.com', 'u3@gmail.com', 'gone@gmail.com'], {
      labelId: String(a.labelId),
    });
    const ids = await t.core.database.db
      .selectFrom('message_recipients')
      .select(['id', 'recipient'])
      .where('email_id', 'in', emailIds)
      .execute();
    const id = (address: string) => Number(ids.find((r) => r.recipient === address)?.id);
    const now = Date.now();
    await t.core.mailEvents.append([
      { recipientId: id('u1@qq.com'), kind: 'deliver', at: now, latencyMs: 400 },
      { recipientId: id('u2@qq.com'), kind: 'deliver', at: now, latencyMs: 12_000 },
      { recipientId: id('u3@gmail.com'), kind: 'deliver', at: now, latencyMs: 90_000 },
      { recipientId: id('gone@gmail.com'), kind: 'invalid', at: now, subStatus: 406, reason: 'not_exist' },
      { recipientId: id('u1@qq.com'), kind: 'open', at: now, data: { first: true } },
      { recipientId: id('u1@qq.com'), kind: 'open', at: now, data: {} },
      { recipientId: id('u1@qq.com'), kind: 'click', at: now, data: { first: true, url: 'https://x.test/' } },
    ]);
    while ((await t.core.statistics.rollUp(1000)) > 0);
  });
  after(() => t.close());

  const get = (url: string, who = a, lang = 'en') => call('GET', url, who.owner, undefined, lang);

  it('stat/send: per-day points, totals and rates of the range', async () => {
    const res = await get('/v3/api/stat/send?preset=last7');
    assert.equal(res.statusCode, 200, res.body);
    const { points, totals } = res.json().data;
    assert.equal(points.length, 7);
    assert.equal(points[6].day, today);
    assert.deepEqual(
      [
        totals.requested,
        totals.delivered,
        totals.invalid,
        totals.opened,
        totals.uniqueOpened,
        totals.clicked,
      ],
      [4, 3, 1, 2, 1, 1],
    );
    assert.equal(totals.deliveredRate, 75);
    assert.equal(totals.uniqueOpenRate, 33.33);

    const qq = (await get('/v3/api/stat/send?preset=today&domain=qq.com')).json().data.totals;
    assert.equal(qq.requested, 2);
    const hours = (await get('/v3/api/stat/send?preset=today&groupBy=hour')).json().data.points;
    assert.equal(hours.length, 24);
    assert.equal(
      hours.reduce((sum: number, p: { requested: number }) => sum + p.requested, 0),
      4,
    );
  });

  it('stat/send/export: a CSV of the series', async () => {
    const res = await get('/v3/api/stat/send/export?preset=today');
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /text\/csv/);
    const [header, row] = res.body.trim().split('\n');
    assert.match(header ?? '', /^day,requested,delivered,/);
    assert.match(row ?? '', new RegExp(`^${today},4,3,`));
  });

  it('stat/deliveryTime, receiveDomain, invalid, overview and monitor', async () => {
    const times = (await get('/v3/api/stat/deliveryTime?preset=today')).json().data;
    assert.deepEqual(times.totals.counts, [1, 0, 1, 0, 1, 0, 0, 0]);
    assert.equal(times.byDomain.find((d: { domain: string }) => d.domain === 'qq.com').total, 2);

    const domains = (await get('/v3/api/stat/receiveDomain?preset=today')).json().data.rows;
    assert.deepEqual(
      domains.map((d: { domain: string; requested: number; share: number }) => [
        d.domain,
        d.requested,
        d.share,
      ]),
      [
        ['gmail.com', 2, 50],
        ['qq.com', 2, 50],
      ],
    );
    const invalid = (await get('/v3/api/stat/invalid?preset=today')).json().data;
    assert.equal(invalid.totals.recipientNotFound, 1);

    const overview = (await get('/v3/api/stat/overview?preset=last30')).json().data;
    assert.equal(overview.today.requested, 4);
    assert.equal(overview.trend.length, 30);

    const monitor = (await get('/v3/api/stat/monitor?preset=today')).json().data.rows;
    const gmail = monitor.find((r: { domain: string }) => r.domain === 'gmail.com');
    assert.equal(gmail.deliveredRate, 50);
    assert.deepEqual(
      gmail.alerts,
      ['delivered', 'invalid'],
      'below the default 90% delivered, above 5% invalid',
    );
    assert.deepEqual(monitor.find((r: { domain: string }) => r.domain === 'qq.com').alerts, []);
  });

  it('refuses ranges older than 6 months, reversed, in the future or hourly over a week, in both languages', async () => {
    const old = addDays(addMonths(today, -6), -1);
    for (const [lang, text] of [
      ['en', 'Statistics go back at most 6 months'],
      ['zh-cn', '只能查询最近6个月的数据'],
    ] as const) {
      const res = await get(`/v3/api/stat/send?from=${old}&to=${today}`, a, lang);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json().fields[0], { field: 'from', message: text, rule: 'statRangeTooOld' });
    }
    const ok = await get(`/v3/api/stat/send?from=${addMonths(today, -6)}&to=${today}`);
    assert.equal(ok.statusCode, 200, 'exactly 6 months is allowed');
    const rules = async (query: string) => (await get(`/v3/api/stat/send?${query}`)).json().fields?.[0]?.rule;
    assert.equal(await rules(`from=${today}&to=${addDays(today, -1)}`), 'statRangeOrder');
    assert.equal(await rules(`from=${today}&to=${addDays(today, 1)}`), 'statRangeFuture');
    assert.equal(await rules(`from=${addDays(today, -7)}&to=${today}&groupBy=hour`), 'statHourSpan');
    assert.equal(await rules('from=2024-02-30&to=2024-03-01'), 'statDateFormat');
    assert.equal(await rules('preset=year'), 'invalid', 'a year is for the reputation history only');
    const reputation = await get('/v3/api/user/UserReputationDetail?preset=year');
    assert.equal(reputation.statusCode, 200, reputation.body);
  });

  it('statday/list: per day × API_USER × label × domain with SendCloud fields, and aggregated', async () => {
    const creds = { apiUser: a.apiUser, apiKey: a.apiKey };
    const list = await apiv2(t, 'statday/list', { ...creds, days: '3' });
    assert.equal(list.result, true, list.message);
    const qq = list.info.dataList.find((r: { domain: string }) => r.domain === 'qq.com');
    assert.deepEqual(
      {
        sendDate: qq.sendDate,
        apiUser: qq.apiUser,
        labelId: qq.labelId,
        labelName: qq.labelName,
        requestNum: qq.requestNum,
        deliveredNum: qq.deliveredNum,
        openNum: qq.openNum,
        uniqueOpensNum: qq.uniqueOpensNum,
        clickNum: qq.clickNum,
        deliveredPercent: qq.deliveredPercent,
        openPercent: qq.openPercent,
      },
      {
        sendDate: today,
        apiUser: a.apiUser,
        labelId: a.labelId,
        labelName: 'newsletter',
        requestNum: 2,
        deliveredNum: 2,
        openNum: 2,
        uniqueOpensNum: 1,
        clickNum: 1,
        deliveredPercent: 100,
        openPercent: 100,
      },
    );
    const total = await apiv2(t, 'statday/list', {
      ...creds,
      startDate: today,
      endDate: today,
      aggregate: '1',
    });
    assert.deepEqual(
      [total.info.data.requestNum, total.info.data.invalidEmailsNum, total.info.data.invalidEmailsPercent],
      [4, 1, 25],
    );
    // SendCloud's own sample of aggregate=1: dataList, counts as strings, percentages as numbers.
    assert.deepEqual(
      [
        total.info.dataList.requestNum,
        total.info.dataList.invalidEmailNum,
        total.info.dataList.invalidEmailsPercent,
      ],
      ['4', '1', 25],
    );
    const gmailOnly = await apiv2(t, 'statday/list', {
      ...creds,
      days: '1',
      domainList: 'gmail.com',
      aggregate: '1',
    });
    assert.equal(gmailOnly.info.data.requestNum, 2);
    const foreign = await apiv2(t, 'statday/list', {
      ...creds,
      days: '1',
      apiUserList: b.apiUser,
      aggregate: '1',
    });
    assert.equal(foreign.info.data.requestNum, 0, "another account's API_USER matches nothing");

    const tooOld = await apiv2(t, 'statday/list', {
      ...creds,
      startDate: addMonths(today, -7),
      endDate: today,
    });
    assert.equal(tooOld.result, false);
    assert.equal(tooOld.statusCode, 400);
    assert.match(tooOld.message, /6 months/);
    const badDays = await apiv2(t, 'statday/list', { ...creds, days: 'x' });
    assert.equal(badDays.result, false);
  });

  it('stathour/list and invalidstat/list', async () => {
    const creds = { apiUser: a.apiUser, apiKey: a.apiKey };
    const hours = await apiv2(t, 'stathour/list', { ...creds, days: '1' });
    assert.equal(hours.result, true, hours.message);
    const row = hours.info.dataList[0];
    assert.ok(row.sendHour >= 0 && row.sendHour <= 23);
    assert.equal(row.requestNum, 4);
    assert.equal(row.domain, undefined);

    const invalid = await apiv2(t, 'invalidstat/list', { ...creds, days: '1' });
    assert.equal(invalid.result, true, invalid.message);
    assert.deepEqual(
      invalid.info.dataList.map((r: { domain: string; recipientNotFound: number; ubsubscribe: number }) => [
        r.domain,
        r.recipientNotFound,
        r.ubsubscribe,
      ]),
      [['gmail.com', 1, 0]],
    );
    const aggregate = await apiv2(t, 'invalidstat/list', { ...creds, days: '1', aggregate: '1' });
    assert.equal(aggregate.info.data.recipientNotFound, 1);
    assert.equal(aggregate.info.data.sendcloudBlacklist, 0);
  });

  it('anti-bombing: an address asked for 10 times in the hour and a domain flooded past its usual volume', async () => {
    for (let i = 0; i < 10; i++) await sendMail(t, a, ['target@163.com']);
    await sendMail(
      t,
      a,
      Array.from({ length: 100 }, (_, i) => `flood${i}@sina.com`),
    );
    while ((await t.core.statistics.rollUp(1000)) > 0);
    const alerts = await t.core.statistics.bombingAlerts({ accountId: a.accountId });
    assert.deepEqual(alerts.addresses, [{ recipient: 'target@163.com', requests: 10 }]);
    assert.deepEqual(alerts.domains, [{ domain: 'sina.com', requests: 100, usual: 0 }]);
    assert.deepEqual(await t.core.statistics.bombingAlerts({ accountId: b.accountId }), {
      addresses: [],
      domains: [],
    });
  });

  it('another account sees zeros; its monitor settings are 404 to others; code 10 is required', async () => {
    const other = (await get('/v3/api/stat/send?preset=today', b)).json().data.totals;
    assert.equal(other.requested, 0);
    assert.deepEqual((await get('/v3/api/stat/receiveDomain?preset=today', b)).json().data.rows, []);
    const otherApi = await apiv2(t, 'statday/list', { apiUser: b.apiUser, apiKey: b.apiKey, days: '1' });
    assert.deepEqual(otherApi.info.dataList, []);

    const created = await call('POST', '/v3/api/stat/monitorConfigs', a.owner, {
      recipientDomain: 'QQ.com',
      minDeliveredRate: 99,
      maxInvalidRate: '',
      minOpenRate: 60,
    });
    assert.equal(created.statusCode, 201, created.body);
    const config = created.json().data;
    assert.equal(config.recipientDomain, 'qq.com');
    const dup = await call('POST', '/v3/api/stat/monitorConfigs', a.owner, {
      recipientDomain: 'qq.com',
      minOpenRate: 1,
    });
    assert.equal(dup.statusCode, 422);
    const none = await call('POST', '/v3/api/stat/monitorConfigs', a.owner, { recipientDomain: '163.com' });
    assert.equal(none.json().fields[0].rule, 'statThresholdRequired');

    const gmail = await call('POST', '/v3/api/stat/monitorConfigs', a.owner, {
      recipientDomain: 'gmail.com',
      minOpenRate: 10,
    });
    assert.equal(gmail.statusCode, 201, gmail.body);
    const rows = (await get('/v3/api/stat/monitor?preset=today')).json().data.rows;
    const alertsOf = (domain: string) => rows.find((r: { domain: string }) => r.domain === domain).alerts;
    assert.deepEqual(alertsOf('qq.com'), [], '100% delivered ≥ 99, 100% opened ≥ 60');
    assert.deepEqual(
      alertsOf('gmail.com'),
      ['open'],
      'only its own thresholds: no opens of 1 delivered < 10%',
    );

    const patched = await call('PATCH', `/v3/api/stat/monitorConfigs/${config.id}`, a.owner, {
      recipientDomain: 'qq.com',
      minDeliveredRate: 50,
    });
    assert.equal(patched.json().data.minOpenRate, null);
    assert.equal(
      (
        await call('PATCH', `/v3/api/stat/monitorConfigs/${config.id}`, b.owner, {
          recipientDomain: 'qq.com',
          minDeliveredRate: 1,
        })
      ).statusCode,
      404,
    );
    assert.equal((await call('DELETE', `/v3/api/stat/monitorConfigs/${config.id}`, b.owner)).statusCode, 404);
    assert.equal((await call('DELETE', `/v3/api/stat/monitorConfigs/${config.id}`, a.owner)).statusCode, 204);
    const listed = (await get('/v3/api/stat/monitorConfigs')).json().data;
    assert.deepEqual(
      listed.map((c: { recipientDomain: string }) => c.recipientDomain),
      ['gmail.com'],
    );

    const sender = await joinedMember(t, a.owner, 'stats_sendonly', {
      type: 'custom',
      levels: { [P.EMAIL_SEND]: 'full' },
    });
    assert.equal((await call('GET', '/v3/api/stat/send?preset=today', sender)).statusCode, 403);
    assert.equal((await call('GET', '/v3/api/user/UserReputationDetail', sender)).statusCode, 403);
  });
});
