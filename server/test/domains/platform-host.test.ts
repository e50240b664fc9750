import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createApiUser } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, createOwner } from '../helpers/members.ts';

/**
 * Honest host names. Without HERALD_HOSTNAME and with a public URL on an IP address, Herald has
 * no DNS name for the SPF include or the MX customers must publish: the domain records say what
 * the operator must set (in the caller's language) instead of `include:spf.127.0.0.1`. And a
 * worker will not greet receiving servers with an IP literal unless told it may.
 */
describe('platform host names', () => {
  let t: TestApp;
  let base: string;
  let creds: { apiUser: string; apiKey: string };
  let owner: Awaited<ReturnType<typeof createOwner>>;

  before(async () => {
    t = await buildTestApp({ env: { HERALD_PUBLIC_URL: 'http://127.0.0.1:8080' } });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    owner = await createOwner(t, 'host_owner');
    const user = await createApiUser(t.core.database, owner.ctx.accountId, { name: 'host_sender' });
    creds = { apiUser: user.name, apiKey: user.apiKey };
  });
  after(async () => {
    await t.close();
  });

  const call = async (action: string, params: Record<string, string>, lang: string) => {
    const res = await fetch(`${base}/apiv2/${action}?lang=${lang}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...creds, ...params }).toString(),
    });
    assert.equal(res.status, 200);
    return (await res.json()) as { result: boolean; message: string; info: { data: Record<string, string> } };
  };

  it('apiv2 domain records say to set HERALD_HOSTNAME instead of an SPF include of an IP address', async () => {
    const added = await call('domain/add', { name: 'unset.example.test' }, 'en');
    assert.equal(added.result, true, added.message);
    const data = added.info.data;
    assert.doesNotMatch(String(data['spf.value']), /127\.0\.0\.1|include:spf\./);
    assert.match(String(data['spf.value']), /set HERALD_HOSTNAME \(or HERALD_SPF_DOMAIN\)/);
    assert.match(String(data['mx.value']), /set HERALD_HOSTNAME \(or HERALD_INBOUND_MX_HOST\)/);
    assert.match(String(data['dkim.value']), /^v=DKIM1; k=rsa; p=/, 'the DKIM record is unaffected');

    const zh = await call('domain/list', { name: 'unset.example.test' }, 'zh-cn');
    const listed = (zh.info as unknown as { dataList: Record<string, string>[] }).dataList[0];
    assert.match(String(listed?.['spf.value']), /请管理员设置 HERALD_HOSTNAME/);
  });

  it('the console API marks the SPF and MX records as placeholders naming the setting', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v3/api/config/domains',
      headers: bearer(owner.token),
    });
    assert.equal(res.statusCode, 200, res.body);
    type Listed = { records: { kind: string; value: string; missingSetting?: string }[] };
    const domain = (res.json() as { data: { list: Listed[] } }).data.list[0];
    assert.ok(domain, res.body);
    const spf = domain.records.find((r) => r.kind === 'spf');
    const mx = domain.records.find((r) => r.kind === 'mx');
    assert.equal(spf?.missingSetting, 'HERALD_SPF_DOMAIN');
    assert.equal(mx?.missingSetting, 'HERALD_INBOUND_MX_HOST');
    assert.doesNotMatch(spf?.value ?? '', /127\.0\.0\.1/);
    const dkim = domain.records.find((r) => r.kind === 'dkim');
    assert.equal(dkim?.missingSetting, undefined);
  });
});

describe('the worker’s EHLO name', () => {
  const env = (extra: Record<string, string>) => ({ HERALD_DATA_DIR: '/tmp/herald-config-test', ...extra });

  it('refuses to start a worker whose name is an IP literal', () => {
    assert.throws(
      () => loadConfig(env({ HERALD_HOSTNAME: '203.0.113.7' }), ['--role=worker']),
      (error: unknown) =>
        error instanceof ConfigError &&
        /HERALD_HOSTNAME/.test(error.message) &&
        /HERALD_ALLOW_IP_HOSTNAME/.test(error.message),
    );
    assert.throws(() => loadConfig(env({ HERALD_HOSTNAME: '[2001:db8::1]' }), ['--role=all']), ConfigError);
  });

  it('starts it when HERALD_ALLOW_IP_HOSTNAME says so, and never minds other roles', () => {
    const allowed = loadConfig(env({ HERALD_HOSTNAME: '203.0.113.7', HERALD_ALLOW_IP_HOSTNAME: '1' }), [
      '--role=worker',
    ]);
    assert.equal(allowed.hostname, '203.0.113.7');
    assert.doesNotThrow(() => loadConfig(env({ HERALD_HOSTNAME: '203.0.113.7' }), ['--role=api,smtp']));
    const named = loadConfig(env({ HERALD_HOSTNAME: 'mta1.example.com' }), ['--role=worker']);
    assert.equal(named.sendingDomains.spfDomain, 'spf.mta1.example.com');
  });
});
