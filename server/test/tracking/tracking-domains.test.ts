import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type DnsServer, startDnsServer } from '@herald/test-peers';
import { SslCertificatesService } from '../../src/core/tracking/ssl-certificates.service.ts';
import { type Inject, injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, type SignedIn } from '../helpers/members.ts';
import { selfSigned } from './tracking-fixtures.ts';

/**
 * Custom tracking domains and their HTTPS certificates through the console API: the limit of
 * five, unique names ('Tracking domain name already exists'), CNAME verification against a
 * loopback DNS peer, the default, tenancy, and every validity check of an uploaded certificate.
 */
describe('tracking domains and certificates', () => {
  let dns: DnsServer;
  let t: TestApp;
  let call: Inject;
  let a: SignedIn;
  let b: SignedIn;

  before(async () => {
    dns = await startDnsServer();
    t = await buildTestApp({
      env: {
        HERALD_DNS_SERVERS: dns.address,
        HERALD_HOSTNAME: 'herald.test',
        HERALD_TRACKING_CNAME: 'track.herald.test',
      },
    });
    call = injector(t);
    a = await createOwner(t, `track_a_${process.pid}`);
    b = await createOwner(t, `track_b_${process.pid}`);
  });
  after(async () => {
    await t?.close();
    await dns?.close();
  });

  const add = (who: SignedIn, name: string, lang = 'en') =>
    call('POST', '/v3/api/trackDomains', who, { name }, lang);

  it('adds at most five per account, each name once across the platform, in the caller’s language', async () => {
    const first = await add(a, 'Click.Shop-A.test');
    assert.equal(first.statusCode, 201, first.body);
    assert.deepEqual(
      (({ name, hostRecord, primaryDomain, recordType, recordValue, status, isDefault }) => ({
        name,
        hostRecord,
        primaryDomain,
        recordType,
        recordValue,
        status,
        isDefault,
      }))(first.json().data),
      {
        name: 'click.shop-a.test',
        hostRecord: 'click',
        primaryDomain: 'shop-a.test',
        recordType: 'CNAME',
        recordValue: 'track.herald.test',
        status: 'unverified',
        isDefault: false,
      },
    );
    for (const [lang, message] of [
      ['en', 'Tracking domain name already exists'],
      ['zh-cn', '跟踪域名已存在'],
    ] as const) {
      const taken = await add(b, 'click.shop-a.test', lang);
      assert.equal(taken.statusCode, 422);
      assert.equal(taken.json().message, message);
    }
    for (let i = 2; i <= 5; i += 1) assert.equal((await add(a, `t${i}.shop-a.test`)).statusCode, 201);
    const sixth = await add(a, 't6.shop-a.test');
    assert.equal(sixth.statusCode, 400);
    assert.equal(sixth.json().message, 'At most 5 tracking domains');
    assert.equal((await call('GET', '/v3/api/trackDomains', a)).json().data.length, 5);

    const bad = await add(b, 'not a domain');
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().fields[0].field, 'name');
    const platform = await add(b, 'x.track.herald.test');
    assert.equal(platform.statusCode, 400);
    assert.match(platform.json().message, /platform/);
  });

  it('verifies the CNAME through the configured resolver; only a verified domain becomes the default', async () => {
    const id = (await add(b, 'go.shop-b.test')).json().data.id as number;
    const check = async () => (await call('POST', `/v3/api/trackDomains/cname/check/${id}`, b)).json().data;

    const missing = await check();
    assert.equal(missing.status, 'unverified');
    assert.equal(missing.checkErrorCode, 'DNS_CHECK_NXDOMAIN');
    assert.match(missing.checkError, /go\.shop-b\.test does not exist in DNS yet/);
    assert.doesNotMatch(missing.checkError, /NXDOMAIN/);
    const early = await call('POST', `/v3/api/trackDomains/default/${id}`, b);
    assert.equal(early.statusCode, 400);
    assert.match(early.json().message, /not verified/);

    dns.set('go.shop-b.test', 'CNAME', ['elsewhere.example']);
    const wrong = await check();
    assert.equal(wrong.status, 'unverified');
    assert.equal(wrong.existingRecord, 'elsewhere.example');
    assert.equal(wrong.checkErrorCode, 'DNS_CHECK_CNAME_MISMATCH');
    assert.deepEqual(wrong.checkErrorParams, {
      host: 'go.shop-b.test',
      found: 'elsewhere.example',
      target: 'track.herald.test',
    });

    dns.set('go.shop-b.test', 'CNAME', ['track.herald.test.']);
    const right = await check();
    assert.deepEqual(
      [right.status, right.existingRecord, right.checkError],
      ['verified', 'track.herald.test', null],
    );
    const made = await call('POST', `/v3/api/trackDomains/default/${id}`, b);
    assert.equal(made.json().data.isDefault, true);

    const renamed = await call('PATCH', `/v3/api/trackDomains/${id}`, b, {
      name: 'go2.shop-b.test',
      click: false,
    });
    assert.deepEqual(
      [renamed.json().data.status, renamed.json().data.isDefault, renamed.json().data.click],
      ['unverified', false, false],
    );
  });

  it('keeps each account to its own domains: another account’s id is 404', async () => {
    const theirs = (await call('GET', '/v3/api/trackDomains', a)).json().data[0].id as number;
    for (const [method, url] of [
      ['PATCH', `/v3/api/trackDomains/${theirs}`],
      ['DELETE', `/v3/api/trackDomains/${theirs}`],
      ['POST', `/v3/api/trackDomains/default/${theirs}`],
      ['POST', `/v3/api/trackDomains/cname/check/${theirs}`],
    ] as const) {
      const res = await call(method, url, b, method === 'PATCH' ? { open: false } : undefined);
      assert.equal(res.statusCode, 404, `${method} ${url}`);
    }
    assert.equal((await call('GET', '/v3/api/trackDomains', null)).statusCode, 401);
  });

  it('checks an uploaded certificate: parses, key matches, valid long enough, covers the domain, domain is ours', async () => {
    const name = 'click.shop-a.test';
    const good = selfSigned(name, 365);
    const other = selfSigned('other.shop-a.test', 365);
    const upload = (who: SignedIn, body: object, lang = 'en') =>
      call('POST', '/v3/api/config/ssl', who, body, lang);
    const refused = async (body: object, status: number, message: RegExp, who = a) => {
      const res = await upload(who, body);
      assert.equal(res.statusCode, status, res.body);
      assert.match(res.json().message, message);
    };

    await refused({ domain: name, certificate: 'nope', privateKey: good.key }, 400, /not valid/);
    assert.equal(
      (await upload(a, { domain: name, certificate: 'nope', privateKey: good.key })).json().fields[0].field,
      'certificate',
    );
    await refused(
      {
        domain: name,
        certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
        privateKey: good.key,
      },
      400,
      /certificate is not valid/,
    );
    await refused(
      {
        domain: name,
        certificate: good.cert,
        privateKey: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----',
      },
      400,
      /private key is not valid/,
    );
    await refused({ domain: name, certificate: good.cert, privateKey: other.key }, 400, /does not match/);
    await refused(
      { domain: name, certificate: other.cert, privateKey: other.key },
      400,
      /does not cover click\.shop-a\.test/,
    );
    await refused(
      { domain: name, certificate: selfSigned(name, 3).cert, privateKey: good.key },
      400,
      /does not match/,
    );
    const soon = selfSigned(name, 3);
    await refused({ domain: name, certificate: soon.cert, privateKey: soon.key }, 400, /more than 7 days/);
    await refused(
      { domain: 'nobody.shop-a.test', certificate: good.cert, privateKey: good.key },
      400,
      /not one of your tracking domains/,
    );
    await refused(
      { domain: name, certificate: good.cert, privateKey: good.key },
      400,
      /not one of your tracking domains/,
      b,
    );

    // A year and a month later the same certificate has expired (the service's clock is injectable).
    const later = new SslCertificatesService({
      database: t.core.database,
      secretBox: t.core.secretBox,
      domains: t.core.trackingDomains,
      logger: t.core.logger,
      now: () => Date.now() + 400 * 86_400_000,
    });
    await assert.rejects(later.add(a.ctx, { domain: name, certificate: good.cert, privateKey: good.key }), {
      code: 'SSL_CERT_EXPIRED',
    });

    const ok = await upload(a, { domain: name, certificate: good.cert, privateKey: good.key });
    assert.equal(ok.statusCode, 201, ok.body);
    const view = ok.json().data;
    assert.equal(view.domain, name);
    assert.ok(view.validTo > Date.now() + 360 * 86_400_000);
    assert.equal(JSON.stringify(view).includes('PRIVATE KEY'), false, 'the key is never shown');
    const stored = await t.core.database.db
      .selectFrom('ssl_certificates')
      .selectAll()
      .where('domain', '=', name)
      .executeTakeFirstOrThrow();
    assert.equal(stored.private_key_sealed.includes('PRIVATE KEY'), false, 'the key is sealed at rest');
    assert.ok(await t.core.sslCertificates.contextFor(name), 'the HTTPS listener can use it');

    const domains = (await call('GET', '/v3/api/trackDomains', a)).json().data as {
      name: string;
      https: boolean;
    }[];
    assert.equal(domains.find((d) => d.name === name)?.https, true);
    assert.equal((await call('GET', '/v3/api/config/ssl', b)).json().data.length, 0);
    assert.equal((await call('DELETE', `/v3/api/config/ssl/${view.id}`, b)).statusCode, 404);
    assert.equal((await call('DELETE', `/v3/api/config/ssl/${view.id}`, a)).statusCode, 204);
    assert.equal(await t.core.sslCertificates.contextFor(name), null);
  });
});
