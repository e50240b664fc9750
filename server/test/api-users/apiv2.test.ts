import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDomain } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, type SignedIn } from '../helpers/members.ts';
import { apiv2, injector } from './fixtures.ts';

/**
 * `apiuser/list`, `apiuser/add` and `userinfo/get` of the SendCloud-compatible API, called the
 * way SendCloud's documentation shows: plain form posts carrying apiUser and apiKey.
 */
describe('apiuser/* and userinfo/get (SendCloud-compatible)', () => {
  let t: TestApp;
  let owner: SignedIn;
  let creds: { apiUser: string; apiKey: string };

  before(async () => {
    t = await buildTestApp();
    owner = await createOwner(t, 'apiv2_owner');
    const domainId = (
      await createDomain(t.core.database, owner.ctx.accountId, { name: 'mail.apiv2.example' })
    ).id;
    await createDomain(t.core.database, owner.ctx.accountId, {
      name: 'new.apiv2.example',
      status: 'unverified',
    });
    const other = await createOwner(t, 'apiv2_other');
    await createDomain(t.core.database, other.ctx.accountId, { name: 'mail.other2.example' });
    const res = await injector(t)('POST', '/v3/api/config/categories', owner, {
      name: 'apiv2_main',
      emailType: 'trigger',
      domainId,
    });
    creds = { apiUser: 'apiv2_main', apiKey: res.json().data.apiKey };
  });
  after(() => t.close());

  it('rejects a wrong key with 40005', async () => {
    const res = await apiv2(t, 'apiuser/list', { apiUser: 'apiv2_main', apiKey: 'wrong' });
    assert.deepEqual([res.result, res.statusCode], [false, 40005]);
    const zh = await apiv2(t, 'apiuser/list', { apiUser: 'apiv2_main', apiKey: 'wrong' }, 'zh-cn');
    assert.equal(zh.message, '认证失败');
  });

  it('adds an API_USER whose nameKey authenticates at once', async () => {
    const res = await apiv2(t, 'apiuser/add', {
      ...creds,
      name: 'apiv2_batch',
      emailType: '1',
      domainName: 'mail.apiv2.example',
      click: '0',
    });
    assert.equal(res.result, true, res.message);
    assert.equal(res.statusCode, 200);
    const data = res.info.data;
    assert.equal(data.name, 'apiv2_batch');
    assert.equal(data.emailType, 'batch');
    assert.equal(data.domain, 'mail.apiv2.example');
    assert.deepEqual([data.open, data.click, data.unsubscribe], [1, 0, 1]);
    assert.match(data.nameKey, /^[A-Za-z0-9_-]{43}$/);

    const asNew = await apiv2(t, 'apiuser/list', { apiUser: 'apiv2_batch', apiKey: data.nameKey });
    assert.equal(asNew.result, true);
    assert.equal(asNew.info.count, 2);
  });

  it('lists with the emailType, cType and domainName filters', async () => {
    const all = await apiv2(t, 'apiuser/list', creds);
    assert.deepEqual(
      all.info.dataList.map((u: { name: string }) => u.name),
      ['apiv2_main', 'apiv2_batch'],
    );
    assert.deepEqual(all.info.dataList[0], {
      name: 'apiv2_main',
      cType: 'normal',
      emailType: 'trigger',
      domainName: 'mail.apiv2.example',
      neteaseSender: '',
      click: 1,
      open: 1,
      unsubscribe: 1,
    });
    const batch = await apiv2(t, 'apiuser/list', { ...creds, emailType: '1' });
    assert.deepEqual(
      batch.info.dataList.map((u: { name: string }) => u.name),
      ['apiv2_batch'],
    );
    assert.equal((await apiv2(t, 'apiuser/list', { ...creds, cType: '0' })).info.count, 0);
    assert.equal((await apiv2(t, 'apiuser/list', { ...creds, domainName: 'other.example' })).info.count, 0);
    const zh = await apiv2(t, 'apiuser/list', { ...creds, emailType: '0' }, 'zh-cn');
    assert.deepEqual([zh.info.dataList[0].emailType, zh.info.dataList[0].cType], ['触发', '非测试']);
  });

  it("answers SendCloud's apiuser codes for each broken rule", async () => {
    const add = (fields: Record<string, string>, lang = 'en') =>
      apiv2(
        t,
        'apiuser/add',
        { ...creds, emailType: '0', domainName: 'mail.apiv2.example', ...fields },
        lang,
      );
    const cases: [Record<string, string>, number, RegExp][] = [
      [{ name: 'short' }, 41101, /6-64 letters/],
      [{ name: 'apiv2_main' }, 41102, /API_USER already exists/],
      [{ name: 'apiv2_type', emailType: '3' }, 41103, /trigger or batch/],
      [{ name: 'apiv2_nodomain', domainName: 'mail.other2.example' }, 41104, /does not exist/],
      [{ name: 'apiv2_unverified', domainName: 'new.apiv2.example' }, 41105, /not verified/],
      [{ name: 'apiv2_unsub', unsubscribe: '0' }, 41106, /Free users cannot deselect Subscribe Tracking/],
    ];
    for (const [fields, code, message] of cases) {
      const res = await add(fields);
      assert.equal(res.result, false, JSON.stringify(fields));
      assert.equal(res.statusCode, code, JSON.stringify(fields));
      assert.match(res.message, message);
    }
    const zh = await add({ name: 'apiv2_unsub', unsubscribe: '0' }, 'zh-cn');
    assert.equal(zh.message, '免费用户不能取消订阅追踪');
  });

  it('answers 41112 past 10 API_USERs', async () => {
    for (let i = 0; i < 8; i++) {
      const res = await apiv2(t, 'apiuser/add', {
        ...creds,
        name: `apiv2_fill_${i}`,
        emailType: '0',
        domainName: 'mail.apiv2.example',
      });
      assert.equal(res.result, true, res.message);
    }
    const res = await apiv2(t, 'apiuser/add', {
      ...creds,
      name: 'apiv2_eleventh',
      emailType: '0',
      domainName: 'mail.apiv2.example',
    });
    assert.deepEqual([res.result, res.statusCode], [false, 41112]);
  });

  it("userinfo/get reports the account, its quota and today's usage", async () => {
    const day = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    await t.core.database.db
      .insertInto('daily_usage')
      .values({ account_id: owner.ctx.accountId, api_user_id: 1, day, count: 3 })
      .execute();
    const res = await apiv2(t, 'userinfo/get', creds, 'zh-cn');
    assert.equal(res.result, true);
    const info = res.info;
    assert.equal(info.userName, 'apiv2_owner');
    assert.equal(info.email, 'apiv2_owner@example.com');
    assert.equal(info.quota, 10);
    assert.equal(info.todayUsedQuota, 3);
    assert.equal(info.accountType, '免费用户');
    assert.equal(info.balance, 0);
    assert.equal(info.avaliableBalance, info.availableBalance);
    assert.match(info.regTime, /^\d{4}-\d{2}-\d{2}$/);
  });
});
