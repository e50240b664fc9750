import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ERRORS, formatMessage } from '@herald/shared';
import { type DnsServer, startDnsServer } from '@herald/test-peers';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, createOwner, type SignedIn } from '../helpers/members.ts';
import { type DomainJson, domainEnv, PLATFORM, recordOf } from './fixtures.ts';

/**
 * The records page as DNS providers ask for it (issue 16): each record's name relative to the zone
 * ("主机记录") beside the full name, and each check's problem as a code with parameters that the
 * console says in the reader's language, never a resolver's word. Checked through the console API
 * against a loopback DNS server.
 */
describe('DNS records as DNS consoles ask for them', () => {
  let t: TestApp;
  let dns: DnsServer;
  let owner: SignedIn;

  before(async () => {
    dns = await startDnsServer();
    t = await buildTestApp({ env: domainEnv(dns) });
    owner = await createOwner(t, 'zone_owner');
  });
  after(async () => {
    await t.close();
    await dns.close();
  });
  beforeEach(async () => {
    dns.clear();
    await t.core.database.db.deleteFrom('sending_domains').execute();
  });

  const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { ...bearer(owner.token), lang: 'en' },
      ...(payload ? { payload } : {}),
    });
  const add = async (name: string): Promise<DomainJson> => {
    const res = await api('POST', '/v3/api/config/domains', { name });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data;
  };
  const verifyNow = async (id: number): Promise<DomainJson> => {
    const res = await api('POST', `/v3/api/config/domains/verify/${id}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };
  const names = (d: DomainJson) => d.records.map((r) => [r.kind, r.hostPrefix, r.zone, r.host]);

  it('gives each host relative to the registrable domain, with the full name beside it', async () => {
    const sub = await add('mail.example.co.uk');
    const selector = recordOf(sub, 'dkim').host.split('.')[0];
    assert.deepEqual(names(sub), [
      ['spf', 'mail', 'example.co.uk', 'mail.example.co.uk'],
      ['dkim', `${selector}._domainkey.mail`, 'example.co.uk', `${selector}._domainkey.mail.example.co.uk`],
      ['mx', 'mail', 'example.co.uk', 'mail.example.co.uk'],
      ['dmarc', '_dmarc.mail', 'example.co.uk', '_dmarc.mail.example.co.uk'],
    ]);

    const apex = await add('example.com');
    assert.deepEqual(
      apex.records.map((r) => [r.kind, r.hostPrefix, r.zone]),
      [
        ['spf', '@', 'example.com'],
        ['dkim', `${recordOf(apex, 'dkim').host.split('.')[0]}._domainkey`, 'example.com'],
        ['mx', '@', 'example.com'],
        ['dmarc', '_dmarc', 'example.com'],
      ],
    );

    // A private suffix of the list is a boundary too: customers own zones one label below it.
    const priv = await add('news.shop.cn.com');
    assert.deepEqual([recordOf(priv, 'spf').hostPrefix, recordOf(priv, 'spf').zone], ['news', 'shop.cn.com']);
  });

  it('reports each problem as a code the reader’s language can say, and stores it across reads', async () => {
    const domain = await add('codes.example.test');
    dns.set('codes.example.test', 'TXT', ['v=spf1 -all', `v=spf1 include:${PLATFORM.spf} ~all`]);
    dns.set('codes.example.test', 'MX', [{ priority: 10, exchange: 'mx.elsewhere.test' }]);
    dns.set('_dmarc.codes.example.test', 'TXT', ['v=DMARC1; p=none', 'v=DMARC1; p=reject']);
    await verifyNow(domain.id);
    const read = (await api('GET', `/v3/api/config/domains/${domain.id}`)).json().data as DomainJson;
    const dkimHost = recordOf(domain, 'dkim').host;
    assert.deepEqual(
      read.records.map((r) => [r.kind, r.status, r.errorCode, r.errorParams]),
      [
        ['spf', 'invalid', 'DNS_CHECK_SPF_MULTIPLE', { host: 'codes.example.test', spfDomain: PLATFORM.spf }],
        ['dkim', 'missing', 'DNS_CHECK_NXDOMAIN', { host: dkimHost }],
        ['mx', 'invalid', 'DNS_CHECK_MX_ELSEWHERE', { host: 'codes.example.test', mxHost: PLATFORM.mx }],
        ['dmarc', 'invalid', 'DNS_CHECK_DMARC_MULTIPLE', { host: '_dmarc.codes.example.test' }],
      ],
    );
    // `error` stays the English sentence for API clients.
    for (const r of read.records) {
      assert.equal(r.error, formatMessage(r.errorCode as 'DNS_CHECK_NXDOMAIN', 'en', r.errorParams ?? {}));
    }
    const zh = formatMessage('DNS_CHECK_NXDOMAIN', 'zh-cn', { host: dkimHost });
    assert.equal(
      zh,
      `DNS 中还没有 ${dkimHost} 这个名称：请在 DNS 服务商处添加此记录（新记录生效可能需要几分钟）`,
    );

    dns.set(dkimHost, 'TXT', ['v=DKIM1; k=ed25519; p=AAAA']);
    dns.set('codes.example.test', 'TXT', ['v=spf1 ~all']);
    const again = await verifyNow(domain.id);
    assert.equal(recordOf(again, 'dkim').errorCode, 'DNS_CHECK_DKIM_KEY_DIFFERS');
    assert.equal(recordOf(again, 'spf').errorCode, 'DNS_CHECK_SPF_NO_INCLUDE');
  });

  it('says "no records" for a name that exists without the type, and a failed look-up as such', async () => {
    const domain = await add('nodata.example.test');
    dns.set('nodata.example.test', 'A', ['192.0.2.1']);
    const checked = await verifyNow(domain.id);
    assert.equal(recordOf(checked, 'spf').errorCode, 'DNS_CHECK_NO_RECORDS');
    assert.deepEqual(recordOf(checked, 'spf').errorParams, { host: 'nodata.example.test', type: 'TXT' });
    assert.equal(
      recordOf(checked, 'mx').error,
      'nodata.example.test has no MX record: add this record at your DNS host',
    );

    dns.fail('nodata.example.test', 'SERVFAIL');
    const failed = await verifyNow(domain.id);
    assert.equal(recordOf(failed, 'mx').status, 'missing', 'a failed look-up keeps the last verdict');
    assert.equal(recordOf(failed, 'mx').errorCode, 'DNS_CHECK_SERVFAIL');
  });

  it('shows an error a check stored before the codes as it was', async () => {
    const domain = await add('legacy.example.test');
    await t.core.database.db
      .updateTable('sending_domains')
      .set({
        spf_status: 'missing',
        spf_error: 'legacy.example.test: no SPF record (v=spf1)',
        mx_error: '{not json',
      })
      .where('id', '=', domain.id)
      .execute();
    const read = (await api('GET', `/v3/api/config/domains/${domain.id}`)).json().data as DomainJson;
    const spf = recordOf(read, 'spf');
    assert.deepEqual(
      [spf.error, spf.errorCode, spf.errorParams],
      ['legacy.example.test: no SPF record (v=spf1)', null, null],
    );
    assert.deepEqual([recordOf(read, 'mx').error, recordOf(read, 'mx').errorCode], ['{not json', null]);
    assert.deepEqual([recordOf(read, 'dkim').error, recordOf(read, 'dkim').errorCode], [null, null]);
  });

  it('never puts a resolver’s word in a check’s text', () => {
    const checks = Object.entries(ERRORS).filter(([code]) => code.startsWith('DNS_CHECK_'));
    assert.ok(checks.length >= 10);
    for (const [code, def] of checks) {
      for (const text of [def['zh-cn'], def.en]) {
        assert.doesNotMatch(text, /NXDOMAIN|SERVFAIL|ENOTFOUND|ENODATA|ETIMEOUT|NOERROR/, code);
      }
    }
  });
});
