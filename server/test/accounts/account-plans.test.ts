import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AccountPlansService } from '../../src/core/accounts/account-plans.service.ts';
import { quotaDay, quotaMonth } from '../../src/core/send/quota.ts';
import { createSender, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, type SignedIn } from '../helpers/members.ts';
import { listen, postForm } from '../send/send-client.ts';
import { api, operatorSession } from '../templates/template-helpers.ts';

const DAY = 86_400_000;
const recipients = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `${tag}${i}@example.org`).join(';');
const tomorrow = (now: number) => quotaDay(now + DAY);

/**
 * The operators' plan and quota controls (issue 16), seen where users see them: the mail/send
 * answer (40904 and its advice), the /admin/accounts API, the dashboard's "today n of m". A
 * temporary increase adds the operator's `extra` mails a day for the day of the grant and the
 * next, twice per Asia/Shanghai month at most, one at a time.
 */
describe('operator plan and quota controls', () => {
  let t: TestApp;
  let base: string;
  let call: ReturnType<typeof api>;
  let operator: SignedIn;
  let customer: SignedIn;

  before(async () => {
    t = await buildTestApp();
    base = await listen(t);
    call = api(t);
    operator = await operatorSession(t);
    customer = await createOwner(t, 'plan_owner');
  });
  after(() => t?.close());

  const send = (f: Sender, to: string, lang: 'zh-cn' | 'en' = 'en') =>
    postForm(
      base,
      'mail/send',
      { apiUser: f.apiUser, apiKey: f.apiKey, from: `a@${f.domain}`, to, subject: 's', plain: 'p' },
      lang,
    );
  const row = async (accountId: number) => {
    const res = await call('GET', `/v3/api/admin/accounts/${accountId}`, operator);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };

  it('is the operators’ alone: a customer gets 403', async () => {
    for (const [method, url] of [
      ['GET', '/v3/api/admin/accounts'],
      ['PUT', `/v3/api/admin/accounts/${customer.ctx.accountId}/limits`],
      ['POST', `/v3/api/admin/accounts/${customer.ctx.accountId}/quota-raises`],
    ] as const) {
      const res = await call(method, url, customer, { plan: 'paid', dailyQuota: null, extra: 100 });
      assert.equal(res.statusCode, 403, `${method} ${url}`);
    }
    assert.equal((await row(customer.ctx.accountId)).plan, 'free', 'nothing changed');
  });

  it('at the free limit the error says what to do; a temporary increase lets more through today', async () => {
    const f = await createSender(t.core.database, { accountId: customer.ctx.accountId });
    assert.equal((await send(f, recipients(10, 'a'))).statusCode, 200);
    const over = await send(f, 'b@example.org');
    assert.deepEqual([over.result, over.statusCode], [false, 40904]);
    assert.equal(
      over.message,
      'Quota check failed: today’s quota of 10 emails is used up. It renews at 00:00 Beijing time (UTC+8); to send more today, upgrade to the paid plan or ask the platform operator for a temporary quota increase',
    );
    const zh = await send(f, 'b@example.org', 'zh-cn');
    assert.equal(
      zh.message,
      '额度检查失败: 今日发送额度10封已用完。额度于北京时间0点恢复; 如需今天继续发送, 请升级为付费用户, 或联系平台运营人员临时提额',
    );

    const listed = await call('GET', '/v3/api/admin/accounts?search=PLAN_OWN', operator);
    assert.equal(listed.statusCode, 200, listed.body);
    assert.equal(listed.json().data.total, 1);
    const before = listed.json().data.list[0];
    assert.deepEqual(
      {
        userName: before.userName,
        email: before.email,
        plan: before.plan,
        dailyQuota: before.dailyQuota,
        limit: before.limit,
        used: before.used,
        raise: before.raise,
        raisesThisMonth: before.raisesThisMonth,
      },
      {
        userName: 'plan_owner',
        email: 'plan_owner@example.com',
        plan: 'free',
        dailyQuota: null,
        limit: 10,
        used: 10,
        raise: null,
        raisesThisMonth: 0,
      },
    );

    const now = Date.now();
    const granted = await call(
      'POST',
      `/v3/api/admin/accounts/${customer.ctx.accountId}/quota-raises`,
      operator,
      { extra: 5 },
    );
    assert.equal(granted.statusCode, 201, granted.body);
    const after = granted.json().data;
    assert.equal(after.limit, 15);
    assert.equal(after.raisesThisMonth, 1);
    assert.equal(after.raise.extra, 5);
    assert.equal(after.raise.fromDay, quotaDay(now));
    assert.equal(after.raise.toDay, tomorrow(now));

    assert.equal((await send(f, recipients(5, 'c'))).statusCode, 200, 'the increase applies at once');
    const again = await send(f, 'd@example.org');
    assert.equal(again.statusCode, 40904);
    assert.match(again.message, /today’s quota of 15 emails is used up/);

    const dashboard = await call('GET', '/v3/api/dashboard/overview', customer);
    assert.equal(dashboard.statusCode, 200, dashboard.body);
    const quota = dashboard.json().data.quota;
    assert.deepEqual([quota.used, quota.limit, quota.raise.extra], [15, 15, 5]);

    const second = await call(
      'POST',
      `/v3/api/admin/accounts/${customer.ctx.accountId}/quota-raises`,
      operator,
      { extra: 50 },
    );
    assert.equal(second.statusCode, 409);
    assert.equal(
      second.json().message,
      `This account already has a temporary increase (+5 emails a day, until ${tomorrow(now)}); another can be granted after it ends`,
    );
  });

  it('refuses a third increase in one month, in both languages', async () => {
    const f = await createSender(t.core.database, { plan: 'free' });
    const month = quotaMonth(Date.now());
    // Two increases counted against this month, both over by today.
    for (let i = 0; i < 2; i++) {
      await t.core.database.db
        .insertInto('quota_raises')
        .values({
          account_id: f.accountId,
          extra: 10,
          from_day: quotaDay(Date.now() - 2 * DAY),
          to_day: quotaDay(Date.now() - DAY),
          month,
          granted_by: null,
          granted_at: Date.now(),
        })
        .execute();
    }
    for (const [lang, message] of [
      [
        'en',
        'This account already had 2 temporary quota increases this month, the most a month allows; the next can be granted from the 1st of next month (Beijing time)',
      ],
      ['zh-cn', '本月已临时提额2次, 已达每月上限; 下月1日(北京时间)起可再次提额'],
    ] as const) {
      const res = await call(
        'POST',
        `/v3/api/admin/accounts/${f.accountId}/quota-raises`,
        operator,
        { extra: 10 },
        lang,
      );
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().code, 'PLAN_RAISES_USED_UP');
      assert.equal(res.json().message, message);
    }
    assert.equal((await row(f.accountId)).limit, 10);
  });

  it('counts months and days in Beijing time: two grants a month, each gone on day 3', async () => {
    const f = await createSender(t.core.database, { plan: 'free' });
    let clock = Date.parse('2026-03-31T23:30:00+08:00');
    const plans = new AccountPlansService(t.core.database, { now: () => clock });
    const grant = () => plans.grantRaise(null, f.accountId, 7);
    assert.deepEqual((await grant()).raise, {
      extra: 7,
      fromDay: '2026-03-31',
      toDay: '2026-04-01',
      grantedAt: clock,
    });
    clock = Date.parse('2026-04-01T23:59:00+08:00');
    assert.equal((await plans.get(f.accountId)).limit, 17, 'still on day 2');
    clock = Date.parse('2026-04-02T00:00:00+08:00');
    const day3 = await plans.get(f.accountId);
    assert.deepEqual([day3.limit, day3.raise, day3.raisesThisMonth], [10, null, 0], 'back on day 3');
    await grant();
    clock = Date.parse('2026-04-04T08:00:00+08:00');
    await grant();
    clock = Date.parse('2026-04-30T23:59:00+08:00');
    await assert.rejects(grant(), { code: 'PLAN_RAISES_USED_UP' });
    clock = Date.parse('2026-05-01T00:00:00+08:00');
    assert.equal((await grant()).raisesThisMonth, 1);
  });

  it('an increase granted two days ago no longer lets mail through', async () => {
    const f = await createSender(t.core.database, { plan: 'free' });
    const twoDaysAgo = new AccountPlansService(t.core.database, { now: () => Date.now() - 2 * DAY });
    await twoDaysAgo.grantRaise(null, f.accountId, 100);
    const over = await send(f, recipients(11, 'e'));
    assert.equal(over.statusCode, 40904);
    assert.match(over.message, /today’s quota of 10 emails/);
    const yesterday = await createSender(t.core.database, { plan: 'free' });
    await new AccountPlansService(t.core.database, { now: () => Date.now() - DAY }).grantRaise(
      null,
      yesterday.accountId,
      100,
    );
    assert.equal((await send(yesterday, recipients(11, 'g'))).statusCode, 200, 'day 2 of the increase');
  });

  it('sets the plan and the daily quota; a paid account without a quota has no limit to raise', async () => {
    const f = await createSender(t.core.database, { plan: 'free' });
    const url = `/v3/api/admin/accounts/${f.accountId}/limits`;
    const paid = await call('PUT', url, operator, { plan: 'paid', dailyQuota: null });
    assert.equal(paid.statusCode, 200, paid.body);
    assert.deepEqual([paid.json().data.plan, paid.json().data.limit], ['paid', null]);
    assert.equal((await send(f, recipients(12, 'h'))).statusCode, 200, 'no limit on the paid plan');
    const raise = await call('POST', `/v3/api/admin/accounts/${f.accountId}/quota-raises`, operator, {
      extra: 5,
    });
    assert.equal(raise.statusCode, 409);
    assert.equal(raise.json().code, 'PLAN_RAISE_UNLIMITED');

    const capped = await call('PUT', url, operator, { plan: 'paid', dailyQuota: 13 });
    assert.deepEqual([capped.json().data.dailyQuota, capped.json().data.limit], [13, 13]);
    const over = await send(f, recipients(2, 'i'));
    assert.equal(over.statusCode, 40904);
    assert.match(over.message, /today’s quota of 13 emails/);

    for (const [lang, message] of [
      ['en', "The daily quota is a whole number from 1 to 10000000; leave it empty for the plan's default"],
      ['zh-cn', '每日额度为1-10000000的整数, 留空则使用套餐默认值'],
    ] as const) {
      const bad = await call('PUT', url, operator, { plan: 'paid', dailyQuota: 0 }, lang);
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().fields[0].message, message);
    }
    const badPlan = await call('PUT', url, operator, { plan: 'gold', dailyQuota: null });
    assert.equal(badPlan.statusCode, 400);
    assert.equal(badPlan.json().fields[0].message, 'The plan is free or paid');
    const badRaise = await call('POST', `/v3/api/admin/accounts/${f.accountId}/quota-raises`, operator, {
      extra: 0,
    });
    assert.equal(
      badRaise.json().fields[0].message,
      'A temporary increase is a whole number of 1 to 1000000 emails a day',
    );
    assert.equal((await row(f.accountId)).dailyQuota, 13, 'refused changes change nothing');
  });

  it('answers 404 for an unknown account and for the platform’s own', async () => {
    for (const id of [999_999, operator.ctx.accountId]) {
      const res = await call('PUT', `/v3/api/admin/accounts/${id}/limits`, operator, {
        plan: 'paid',
        dailyQuota: null,
      });
      assert.equal(res.statusCode, 404, String(id));
    }
  });

  it('a test API_USER at its limit is told to use a normal API_USER', async () => {
    const f = await createSender(t.core.database, { plan: 'paid', cType: 'test' });
    const over = await send(f, recipients(51, 'j'));
    assert.equal(over.statusCode, 40904);
    assert.equal(
      over.message,
      'Quota check failed: a test API_USER sends at most 50 emails a day, and today’s are used up; send with a normal API_USER',
    );
  });
});
