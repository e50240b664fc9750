import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSender, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { testDialect } from '../helpers/database.ts';
import { createOwner } from '../helpers/members.ts';
import { listen } from '../send/send-client.ts';

// biome-ignore lint/suspicious/noExplicitAny: envelopes are loose JSON, read field by field in assertions
type Loose = Record<string, any>;
const DOMAIN = 'maillist.localhost';

/**
 * The SendCloud calls of address lists as a client makes them against a listening Herald: v2
 * `addresslist/*` and `addressmember/*` in SendCloud's envelope with its codes, and v1 `list.*`
 * and `list_member.*` in v1's, paid accounts only, another account's list not found.
 */
describe(`Address lists over the SendCloud API on ${testDialect}`, () => {
  let t: TestApp;
  let base: string;
  let f: Sender;
  let theirs: Sender;

  before(async () => {
    t = await buildTestApp();
    base = await listen(t);
    const owner = await createOwner(t, 'api_lists');
    const other = await createOwner(t, 'api_lists_other');
    f = await createSender(t.core.database, { accountId: owner.ctx.accountId });
    theirs = await createSender(t.core.database, {
      accountId: other.ctx.accountId,
      domain: 'their-mail.example.com',
    });
    await t.core.database.db
      .updateTable('accounts')
      .set({ plan: 'paid' })
      .where('id', 'in', [owner.ctx.accountId, other.ctx.accountId])
      .execute();
  });
  after(() => t?.close());

  const v2 = async (action: string, fields: Record<string, string>, who = f, lang = 'en') => {
    const response = await fetch(`${base}/apiv2/${action}`, {
      method: 'POST',
      headers: { 'accept-language': lang },
      body: new URLSearchParams({ apiUser: who.apiUser, apiKey: who.apiKey, ...fields }),
    });
    assert.equal(response.status, 200, action);
    return (await response.json()) as Loose;
  };
  const v1 = async (call: string, fields: Record<string, string>, lang = 'en') => {
    const response = await fetch(`${base}/webapi/${call}`, {
      method: 'POST',
      headers: { 'accept-language': lang },
      body: new URLSearchParams({ api_user: f.apiUser, api_key: f.apiKey, ...fields }),
    });
    assert.equal(response.status, 200, call);
    return (await response.json()) as Loose;
  };

  it('serves addresslist/list|add|update|delete with their shapes and codes', async () => {
    const added = await v2(
      'addresslist/add',
      { address: `devs@${DOMAIN}`, name: 'Developers', desc: 'd' },
      f,
      'zh-cn',
    );
    assert.deepEqual([added.result, added.statusCode, added.message], [true, 200, '请求成功']);
    assert.deepEqual(
      { ...added.info.data, gmtCreated: 'x', gmtUpdated: 'x' },
      {
        address: `devs@${DOMAIN}`,
        name: 'Developers',
        description: 'd',
        memberCount: 0,
        gmtCreated: 'x',
        gmtUpdated: 'x',
      },
    );
    assert.match(added.info.data.gmtCreated, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const taken = await v2('addresslist/add', { address: `DEVS@${DOMAIN}`, name: 'x' }, theirs, 'zh-cn');
    assert.deepEqual([taken.result, taken.statusCode, taken.message], [false, 40502, '别称地址已存在']);
    assert.equal(
      (await v2('addresslist/add', { address: 'devs2@elsewhere.org', name: 'x' })).statusCode,
      40503,
    );
    assert.equal(
      (await v2('addresslist/add', { address: `bad-name@${DOMAIN}`, name: 'x' })).statusCode,
      40503,
    );
    assert.equal((await v2('addresslist/add', { address: `noname@${DOMAIN}` })).statusCode, 40504);
    await v2('addresslist/add', { address: `ops@${DOMAIN}`, name: 'Ops' });

    const listed = await v2('addresslist/list', { limit: '1' });
    assert.deepEqual([listed.info.total, listed.info.count, listed.info.dataList[0].name], [2, 1, 'Ops']);
    const one = await v2('addresslist/list', { address: `devs@${DOMAIN}` });
    assert.deepEqual(
      one.info.dataList.map((l: Loose) => l.address),
      [`devs@${DOMAIN}`],
    );

    const updated = await v2('addresslist/update', {
      address: `ops@${DOMAIN}`,
      newAddress: `ops2@${DOMAIN}`,
      name: 'Ops 2',
    });
    assert.deepEqual([updated.statusCode, updated.info], [200, { count: 1 }]);
    assert.equal((await v2('addresslist/update', { address: `ops2@${DOMAIN}` })).statusCode, 40507);
    // Another account's list is not found.
    assert.equal((await v2('addresslist/delete', { address: `ops2@${DOMAIN}` }, theirs)).statusCode, 40501);
    assert.deepEqual((await v2('addresslist/delete', { address: `ops2@${DOMAIN}` })).info, { count: 1 });
    assert.equal((await v2('addresslist/delete', { address: `ops2@${DOMAIN}` })).statusCode, 40501);
  });

  it('serves addressmember/list|get|add|update|delete, at most 1,000 members a call', async () => {
    const address = `devs@${DOMAIN}`;
    const add = await v2('addressmember/add', {
      address,
      members: 'Ben@ifaxin.com;joe@ifaxin.com',
      vars: '{"money":"1000"};{"money":"900","note":"a;b"}',
    });
    assert.deepEqual([add.statusCode, add.info], [200, { count: 2 }]);
    assert.deepEqual((await v2('addressmember/add', { address, members: 'ben@ifaxin.com' })).info, {
      count: 0,
    });
    const listed = await v2('addressmember/list', { address });
    assert.deepEqual([listed.info.total, listed.info.count], [2, 2]);
    const [ben] = listed.info.dataList;
    assert.deepEqual(
      { ...ben, gmtCreated: 'x', gmtUpdated: 'x' },
      {
        address,
        member: 'ben@ifaxin.com',
        name: '',
        vars: '{"money":"1000"}',
        gmtCreated: 'x',
        gmtUpdated: 'x',
      },
    );
    const got = await v2('addressmember/get', { address, members: 'joe@ifaxin.com' });
    assert.deepEqual(
      [got.info.count, JSON.parse(got.info.dataList[0].vars)],
      [1, { money: '900', note: 'a;b' }],
    );

    const changed = await v2('addressmember/update', {
      address,
      members: 'joe@ifaxin.com',
      vars: '{"money":"1900"}',
    });
    assert.deepEqual(changed.info, { count: 1 });
    assert.equal(
      (await v2('addressmember/get', { address, members: 'joe@ifaxin.com' })).info.dataList[0].vars,
      '{"money":"1900"}',
    );

    const many = Array.from({ length: 1001 }, (_, i) => `m${i}@example.org`).join(';');
    const tooMany = await v2('addressmember/add', { address, members: many }, f, 'zh-cn');
    assert.deepEqual([tooMany.statusCode, tooMany.message], [40514, '每次最多1000个成员']);
    assert.equal((await v2('addressmember/add', { address, members: 'nope' })).statusCode, 40513);
    assert.equal((await v2('addressmember/add', { address })).statusCode, 40517);
    assert.equal(
      (await v2('addressmember/add', { address, members: 'a@b.org', vars: '[1]' })).statusCode,
      40515,
    );
    assert.equal(
      (await v2('addressmember/add', { address, members: 'a@b.org;c@d.org', vars: '{}' })).statusCode,
      40516,
    );
    assert.equal((await v2('addressmember/list', { address }, theirs)).statusCode, 40501);

    assert.deepEqual(
      (await v2('addressmember/delete', { address, members: 'ben@ifaxin.com;nobody@x.org' })).info,
      {
        count: 1,
      },
    );
    assert.equal((await v2('addresslist/list', { address })).info.dataList[0].memberCount, 1);
  });

  it('answers 40820 to a free account, and not found for mail/taskinfo of no task', async () => {
    const free = await createOwner(t, 'api_lists_free');
    const sender = await createSender(t.core.database, {
      accountId: free.ctx.accountId,
      domain: 'free-mail.example.com',
    });
    const refused = await v2('addresslist/list', {}, sender, 'zh-cn');
    assert.deepEqual(
      [refused.result, refused.statusCode, refused.message],
      [false, 40820, '该功能仅对付费用户开放'],
    );
    assert.equal((await v2('mail/taskinfo', { maillistTaskId: '999999' })).statusCode, 404);
  });

  it('serves v1 list.* and list_member.* in v1 shapes', async () => {
    const created = await v1('list.create.json', {
      address: `v1list@${DOMAIN}`,
      name: 'v1',
      description: 'old',
    });
    assert.equal(created.message, 'success', JSON.stringify(created));
    assert.deepEqual(
      { ...created.list, create_at: 'x', modify_at: 'x' },
      {
        create_at: 'x',
        modify_at: 'x',
        address: `v1list@${DOMAIN}`,
        members_count: 0,
        description: 'old',
        name: 'v1',
      },
    );
    const lists = await v1('list.get.json', {});
    assert.ok(lists.lists.some((l: Loose) => l.address === `v1list@${DOMAIN}`));
    assert.equal(lists.count, lists.lists.length);

    const add = await v1('list_member.add.json', {
      mail_list_addr: `v1list@${DOMAIN}`,
      member_addr: 'newaddress1@163.com;newaddress2@qq.com',
      name: 'new1;new2',
      vars: "{'%money%':1000,'age':20};{'%money%':900,'age':21}",
    });
    assert.deepEqual(add, { message: 'success', total_counts: 2 });
    const members = await v1('list_member.get.json', { mail_list_addr: `v1list@${DOMAIN}` });
    assert.equal(members.total_count, 2);
    assert.deepEqual(
      { ...members.members[0], create_at: 'x', modify_at: 'x' },
      {
        create_at: 'x',
        modify_at: 'x',
        address: 'newaddress1@163.com',
        name: 'new1',
        subscribed: 'true',
        vars: { '%money%': '1000', '%age%': '20' },
      },
    );
    const update = await v1('list_member.update.json', {
      mail_list_addr: `v1list@${DOMAIN}`,
      member_addr: 'newaddress1@163.com',
      name: 'new3',
    });
    assert.deepEqual(update, { message: 'success', total_counts: 2 });
    const one = await v1('list_member.get.json', {
      mail_list_addr: `v1list@${DOMAIN}`,
      member_addr: 'newaddress1@163.com',
    });
    assert.deepEqual([one.total_count, one.members[0].name], [1, 'new3']);
    assert.deepEqual(
      await v1('list_member.delete.json', {
        mail_list_addr: `v1list@${DOMAIN}`,
        member_addr: 'newaddress2@qq.com',
      }),
      {
        message: 'success',
        del_count: 1,
      },
    );
    const renamed = await v1('list.update.json', {
      address: `v1list@${DOMAIN}`,
      toAddress: `v1new@${DOMAIN}`,
      name: 'v1 new',
    });
    assert.deepEqual(
      { ...renamed.list, modify_at: 'x' },
      { modify_at: 'x', address: `v1new@${DOMAIN}`, name: 'v1 new', members_count: 1 },
    );
    assert.deepEqual(await v1('list.delete.json', { address: `v1new@${DOMAIN}` }), {
      message: 'success',
      del_count: 1,
    });
    assert.deepEqual(await v1('list.delete.json', { address: `v1new@${DOMAIN}` }), {
      message: 'error',
      errors: ['The address list does not exist'],
    });
  });
});
