import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSender, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { listen, postForm } from '../send/send-client.ts';

/** SendCloud's `bounce/*`, `unsubscribe/*` and `spamreported/list` through plain form posts. */
describe('suppression lists (SendCloud-compatible)', () => {
  let t: TestApp;
  let base: string;
  let f: Sender;
  let other: Sender;

  before(async () => {
    t = await buildTestApp();
    base = await listen(t);
    f = await createSender(t.core.database);
    other = await createSender(t.core.database);
    const at = Date.now();
    for (const address of ['b1@example.org', 'b2@example.net']) {
      await t.core.suppression.recordFailure(f.accountId, address, {
        category: 'not_exist',
        kind: 'invalid',
        detail: '550 5.1.1 user unknown',
        at,
      });
    }
    await t.core.suppression.recordComplaint({ accountId: f.accountId }, 'spam@example.org', 'report_spam');
  });
  after(() => t?.close());

  const call = (path: string, fields: Record<string, string> = {}, who = f, lang: 'en' | 'zh-cn' = 'en') =>
    postForm(base, path, { apiUser: who.apiUser, apiKey: who.apiKey, ...fields }, lang);
  // biome-ignore lint/suspicious/noExplicitAny: envelope info is loose JSON
  const info = (body: { info: unknown }) => body.info as Record<string, any>;

  it('lists, counts and deletes bounces', async () => {
    const list = await call('bounce/list', { days: '1' });
    assert.equal(list.result, true, list.message);
    assert.equal(info(list).total, 2);
    const first = info(list).dataList.find((d: { email: string }) => d.email === 'b1@example.org');
    assert.equal(first.reason, '550 5.1.1 user unknown');
    assert.equal(first.domain, 'example.org');
    assert.match(first.bounceTime, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal(info(await call('bounce/count')).count, 2);
    assert.equal(info(await call('bounce/count', {}, other)).count, 0, 'another account sees none');
    assert.equal(info(await call('bounce/list', { email: 'b2@example.net' })).total, 1);
    assert.equal(info(await call('bounce/list', { start: '1', limit: '1' })).count, 1);

    assert.equal(info(await call('bounce/delete', { email: 'b1@example.org' }, other)).count, 0);
    assert.equal(info(await call('bounce/delete', { email: 'b1@example.org' })).count, 1);
    assert.equal(info(await call('bounce/count')).count, 1);
    assert.equal(
      await t.core.suppression.check(f.accountId, 'b1@example.org', {
        apiUserId: f.apiUserId,
        labelId: null,
        emailType: 'batch',
      }),
      null,
      'deleting the bounce entry lets the account send again',
    );
  });

  it('adds, lists and deletes unsubscribes, scoped by API_USER and label', async () => {
    const added = await call('unsubscribe/add', { email: 'u1@example.org;u2@example.org' });
    assert.equal(added.result, true, added.message);
    assert.equal(info(added).count, 2);
    const scoped = await call('unsubscribe/add', {
      email: 'u3@example.org',
      apiUserList: f.apiUser,
      labelIdList: String(f.labelId),
    });
    assert.equal(info(scoped).count, 1);
    const list = info(await call('unsubscribe/list', { days: '1' }));
    assert.equal(list.total, 3);
    const u3 = list.dataList.find((d: { email: string }) => d.email === 'u3@example.org');
    assert.deepEqual([u3.apiUser, u3.labelId, u3.domain], [f.apiUser, f.labelId, 'example.org']);
    assert.match(u3.unsubscribeTime, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const u1 = list.dataList.find((d: { email: string }) => d.email === 'u1@example.org');
    assert.deepEqual([u1.apiUser, u1.labelId], ['', 0], 'an account-wide entry, as SendCloud answers it');
    assert.equal(info(await call('unsubscribe/list', { labelIdList: String(f.labelId) })).total, 1);
    assert.equal(info(await call('unsubscribe/list', {}, other)).total, 0);

    const bad = await call('unsubscribe/add', { email: 'not-an-address' }, f, 'zh-cn');
    assert.equal(bad.result, false);
    assert.equal(bad.statusCode, 400);
    assert.match(bad.message, /邮箱格式错误/);
    const foreign = await call('unsubscribe/add', { email: 'x@example.org', apiUserList: other.apiUser });
    assert.equal(foreign.result, false);
    assert.equal(foreign.statusCode, 41109, 'API_USER not found');

    assert.equal(info(await call('unsubscribe/delete', { email: 'u1@example.org;u2@example.org' })).count, 2);
    assert.equal(info(await call('unsubscribe/list')).total, 1);
  });

  it('lists spam reports', async () => {
    const list = await call('spamreported/list', { days: '1' });
    assert.equal(list.result, true, list.message);
    assert.equal(info(list).total, 1);
    assert.equal(info(list).dataList[0].email, 'spam@example.org');
    assert.equal(info(list).dataList[0].receiver, 'spam@example.org', "SendCloud's sample name");
    assert.match(info(list).dataList[0].spamReportedTime, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.ok(info(list).dataList[0].expireTime);
    assert.equal(info(await call('spamreported/list', {}, other)).total, 0);
    const badDate = await call('spamreported/list', { startDate: '2026-13-40', endDate: '2026-01-01' });
    assert.equal(badDate.result, false);
    assert.equal(badDate.statusCode, 400);
  });
});
