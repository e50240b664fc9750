import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type DnsServer, startDnsServer } from '@herald/test-peers';
import { createApiUser } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner } from '../helpers/members.ts';
import { domainEnv, PLATFORM } from './fixtures.ts';

interface Info {
  data: Record<string, string | number>;
  dataList: { name: string; verify: number }[];
  count: number;
}

/** SendCloud's domain/list|add|update called as its documentation shows: plain form posts over HTTP. */
describe('apiv2 domain calls', () => {
  let t: TestApp;
  let dns: DnsServer;
  let base: string;
  let creds: { apiUser: string; apiKey: string };
  let otherCreds: { apiUser: string; apiKey: string };

  before(async () => {
    dns = await startDnsServer();
    t = await buildTestApp({ env: domainEnv(dns) });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const owner = await createOwner(t, 'apiv2_owner');
    const other = await createOwner(t, 'apiv2_other');
    const mine = await createApiUser(t.core.database, owner.ctx.accountId, { name: 'apiv2_sender' });
    const theirs = await createApiUser(t.core.database, other.ctx.accountId, { name: 'apiv2_stranger' });
    creds = { apiUser: mine.name, apiKey: mine.apiKey };
    otherCreds = { apiUser: theirs.name, apiKey: theirs.apiKey };
  });
  after(async () => {
    await t.close();
    await dns.close();
  });

  const call = async (action: string, params: Record<string, string>, who = creds) => {
    const res = await fetch(`${base}/apiv2/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...who, ...params }).toString(),
    });
    assert.equal(res.status, 200);
    return (await res.json()) as { result: boolean; statusCode: number; message: string; info: Info };
  };

  it('adds, lists with filters and renames domains with SendCloud’s fields', async () => {
    const added = await call('domain/add', { name: 'api.example.test' });
    assert.equal(added.result, true, added.message);
    assert.equal(added.statusCode, 200);
    const data = added.info.data;
    assert.equal(data.name, 'api.example.test');
    assert.equal(data.type, '普通', 'SendCloud names the kind in words');
    assert.equal(data.verify, 0);
    assert.equal(data['spf.domain'], 'api.example.test');
    assert.equal(data['spf.value'], `v=spf1 include:${PLATFORM.spf} ~all`);
    assert.match(String(data['dkim.domain']), /^hd[0-9a-f]{8}\._domainkey\.api\.example\.test$/);
    assert.match(String(data['dkim.value']), /^v=DKIM1; k=rsa; p=/);
    assert.equal(data['mx.domain'], 'api.example.test');
    assert.equal(data['mx.value'], PLATFORM.mx);
    assert.equal(data['verifyKey.domain'], 'api.example.test');
    assert.match(String(data['verifyKey.value']), /^[0-9a-f-]{36}$/);
    assert.match(String(data.gmtCreated), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal(data.gmtUpdated, data.gmtCreated);

    const renamed = await call('domain/update', { name: 'api.example.test', newName: 'api2.example.test' });
    assert.equal(renamed.result, true, renamed.message);
    assert.equal(renamed.info.data.name, 'api2.example.test');
    assert.equal(renamed.info.data['spf.domain'], 'api2.example.test');

    await call('domain/add', { name: 'ok.example.test' });
    dns.set('ok.example.test', 'TXT', [`v=spf1 include:${PLATFORM.spf} ~all`]);
    const okRow = await t.core.database.db
      .selectFrom('sending_domains')
      .select(['id', 'account_id'])
      .where('name', '=', 'ok.example.test')
      .executeTakeFirstOrThrow();
    await t.core.domains.verify({ accountId: Number(okRow.account_id), userId: 0 }, Number(okRow.id));

    const all = await call('domain/list', {});
    assert.deepEqual(
      all.info.dataList.map((d: { name: string; verify: number }) => [d.name, d.verify]),
      [
        ['api2.example.test', 0],
        ['ok.example.test', 2],
      ],
    );
    assert.equal(all.info.count, 2);
    const names = await call('domain/list', { name: 'ok.example.test;nope.example.test' });
    assert.deepEqual(
      names.info.dataList.map((d: { name: string }) => d.name),
      ['ok.example.test'],
    );
    const atLeast = await call('domain/list', { verify: '>2' });
    assert.deepEqual(
      atLeast.info.dataList.map((d: { name: string }) => d.name),
      ['ok.example.test'],
    );
    const atMost = await call('domain/list', { verify: '<1' });
    assert.deepEqual(
      atMost.info.dataList.map((d: { name: string }) => d.name),
      ['api2.example.test'],
    );
    const exact = await call('domain/list', { verify: '=2' });
    assert.equal(exact.info.dataList.length, 1);
    assert.equal((await call('domain/list', { type: '0' })).info.dataList.length, 0);
    const badFilter = await call('domain/list', { verify: 'lots' });
    assert.equal(badFilter.result, false);
    assert.equal(badFilter.statusCode, 41013);

    const locked = await call('domain/update', { name: 'ok.example.test', newName: 'ok2.example.test' });
    assert.equal(locked.result, false);
    assert.equal(locked.statusCode, 41009);

    const strangers = await call('domain/list', {}, otherCreds);
    assert.deepEqual(strangers.info.dataList, []);
    const notTheirs = await call(
      'domain/update',
      { name: 'ok.example.test', newName: 'x.example.test' },
      otherCreds,
    );
    assert.equal(notTheirs.statusCode, 41004);
  });

  it('answers SendCloud’s codes for a sixth domain, a bad name and bad credentials', async () => {
    for (const n of [3, 4, 5])
      assert.equal((await call('domain/add', { name: `n${n}.example.test` })).result, true);
    const sixth = await call('domain/add', { name: 'n6.example.test' });
    assert.deepEqual([sixth.result, sixth.statusCode], [false, 41012]);
    assert.equal(sixth.message, '最多只能添加5个发信域名');
    const bad = await call('domain/add', { name: 'no_such thing' }, otherCreds);
    assert.equal(bad.result, false);
    assert.equal(bad.statusCode, 400);
    assert.match(bad.message, /name/);
    const reserved = await call('domain/add', { name: PLATFORM.spf }, otherCreds);
    assert.equal(reserved.statusCode, 41002);
    const auth = await call('domain/list', {}, { apiUser: creds.apiUser, apiKey: 'wrong' });
    assert.deepEqual([auth.result, auth.statusCode], [false, 40005]);
  });
});
