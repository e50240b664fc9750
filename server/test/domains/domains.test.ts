import assert from 'node:assert/strict';
import { createPublicKey, sign, verify } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import { type DnsServer, startDnsServer } from '@herald/test-peers';
import { loadDkimKey } from '../../src/core/domains/dkim-key.ts';
import { createApiUser } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { type DomainJson, domainEnv, PLATFORM, publish, recordOf } from './fixtures.ts';

/**
 * Sending domains through the console API, verified against a real DNS server on loopback that
 * Herald reaches through HERALD_DNS_SERVERS: the records the console shows are the ones the test
 * publishes, as a user would at their DNS host.
 */
describe('sending domains', () => {
  let t: TestApp;
  let dns: DnsServer;
  let owner: SignedIn;
  let other: SignedIn;

  before(async () => {
    dns = await startDnsServer();
    t = await buildTestApp({ env: domainEnv(dns) });
    owner = await createOwner(t, 'domain_owner');
    other = await createOwner(t, 'domain_other');
  });
  after(async () => {
    await t.close();
    await dns.close();
  });
  beforeEach(async () => {
    dns.clear();
    await t.core.database.db.deleteFrom('sending_domains').execute();
  });

  const api = (method: string, url: string, who: SignedIn, payload?: object, lang = 'en') =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...bearer(who.token), lang },
      ...(payload ? { payload } : {}),
    });
  const add = async (name: string, who = owner): Promise<DomainJson> => {
    const res = await api('POST', '/v3/api/config/domains', who, { name });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data;
  };
  const verifyNow = async (id: number, who = owner): Promise<DomainJson> => {
    const res = await api('POST', `/v3/api/config/domains/verify/${id}`, who);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };

  it('shows the records to publish, then is usable without DMARC and verified with it', async () => {
    const domain = await add('Mail.Example.TEST');
    assert.equal(domain.name, 'mail.example.test');
    assert.equal(domain.status, 'unverified');
    const spf = recordOf(domain, 'spf');
    assert.deepEqual(
      [spf.type, spf.host, spf.value],
      ['TXT', 'mail.example.test', `v=spf1 include:${PLATFORM.spf} ~all`],
    );
    const dkim = recordOf(domain, 'dkim');
    assert.match(dkim.host, /^hd[0-9a-f]{8}\._domainkey\.mail\.example\.test$/);
    assert.match(dkim.value, /^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
    // A 2048-bit key's SubjectPublicKeyInfo is 294 bytes: 392 base64 characters.
    assert.equal(dkim.value.split('p=')[1]?.length, 392);
    const mx = recordOf(domain, 'mx');
    assert.deepEqual([mx.type, mx.host, mx.value], ['MX', 'mail.example.test', PLATFORM.mx]);
    const dmarc = recordOf(domain, 'dmarc');
    assert.deepEqual([dmarc.host, dmarc.required], ['_dmarc.mail.example.test', false]);
    assert.ok(domain.records.every((r) => r.status === 'pending'));

    const before = await verifyNow(domain.id);
    assert.equal(before.status, 'unverified');
    assert.equal(recordOf(before, 'spf').status, 'missing');
    assert.equal(recordOf(before, 'dkim').status, 'missing');
    const missing = recordOf(before, 'dkim');
    assert.equal(missing.errorCode, 'DNS_CHECK_NXDOMAIN');
    assert.deepEqual(missing.errorParams, { host: dkim.host });
    assert.equal(
      missing.error,
      `${dkim.host} does not exist in DNS yet: add this record at your DNS host (a new record can take a few minutes to appear)`,
    );

    publish(dns, domain, ['spf', 'dkim', 'mx']);
    const usable = await verifyNow(domain.id);
    assert.equal(usable.status, 'usable');
    assert.deepEqual(
      usable.records.map((r) => [r.kind, r.status]),
      [
        ['spf', 'ok'],
        ['dkim', 'ok'],
        ['mx', 'ok'],
        ['dmarc', 'missing'],
      ],
    );
    assert.equal(recordOf(usable, 'spf').found, spf.value);
    assert.equal(recordOf(usable, 'mx').found, `10 ${PLATFORM.mx}`);
    assert.equal(usable.verify, 1 + 2 + 4 + 16);
    const ok1 = (await api('GET', '/v3/api/config/domains/all/ok', owner)).json().data as DomainJson[];
    assert.deepEqual(
      ok1.map((d) => d.name),
      ['mail.example.test'],
    );

    publish(dns, domain, ['dmarc']);
    const verified = await verifyNow(domain.id);
    assert.equal(verified.status, 'verified');
    assert.equal(recordOf(verified, 'dmarc').found, dmarc.value);
    assert.equal(await t.core.domains.isUsableSenderDomain(owner.ctx, 'MAIL.example.test'), true);
    assert.ok(await t.core.domains.findUsableDomain(owner.ctx, domain.id));
    assert.equal(await t.core.domains.findUsableDomain(other.ctx, domain.id), undefined);
  });

  it('says which record is wrong and why', async () => {
    const domain = await add('wrong.example.test');
    dns.set('wrong.example.test', 'TXT', [
      'v=spf1 include:_spf.google.com ~all',
      'google-site-verification=x',
    ]);
    dns.set(recordOf(domain, 'dkim').host, 'TXT', [
      'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAother',
    ]);
    dns.set('wrong.example.test', 'MX', [{ priority: 10, exchange: 'aspmx.l.google.com' }]);
    dns.set('_dmarc.wrong.example.test', 'TXT', ['v=DMARC1; p=maybe']);
    const checked = await verifyNow(domain.id);
    assert.equal(checked.status, 'unverified');
    const spf = recordOf(checked, 'spf');
    assert.equal(spf.status, 'invalid');
    assert.equal(spf.found, 'v=spf1 include:_spf.google.com ~all');
    assert.equal(spf.errorCode, 'DNS_CHECK_SPF_NO_INCLUDE');
    assert.equal(
      spf.error,
      `The SPF record of wrong.example.test lacks include:${PLATFORM.spf}: add include:${PLATFORM.spf} before its ~all or -all`,
    );
    assert.equal(recordOf(checked, 'dkim').status, 'invalid');
    assert.equal(recordOf(checked, 'dkim').errorCode, 'DNS_CHECK_DKIM_KEY_DIFFERS');
    assert.match(recordOf(checked, 'dkim').error ?? '', /is not the one Herald signs with/);
    assert.equal(recordOf(checked, 'mx').errorCode, 'DNS_CHECK_MX_ELSEWHERE');
    assert.deepEqual(recordOf(checked, 'mx').errorParams, {
      host: 'wrong.example.test',
      mxHost: PLATFORM.mx,
    });
    assert.equal(recordOf(checked, 'dmarc').errorCode, 'DNS_CHECK_DMARC_POLICY');
    assert.equal(recordOf(checked, 'mx').status, 'invalid');
    assert.equal(recordOf(checked, 'mx').found, '10 aspmx.l.google.com');
    assert.equal(recordOf(checked, 'dmarc').status, 'invalid');
    assert.equal(checked.verify, 0);

    dns.set('wrong.example.test', 'TXT', ['v=spf1 -all', 'v=spf1 include:spf.herald.test ~all']);
    const twice = await verifyNow(domain.id);
    assert.equal(recordOf(twice, 'spf').errorCode, 'DNS_CHECK_SPF_MULTIPLE');
    assert.match(recordOf(twice, 'spf').error ?? '', /more than one SPF record/);
  });

  it('keeps a record’s verdict through a DNS failure but reports the error', async () => {
    const domain = await add('flaky.example.test');
    publish(dns, domain, ['spf', 'dkim', 'mx']);
    assert.equal((await verifyNow(domain.id)).status, 'usable');
    dns.fail('flaky.example.test', 'SERVFAIL');
    const checked = await verifyNow(domain.id);
    assert.equal(checked.status, 'usable');
    assert.equal(recordOf(checked, 'spf').status, 'ok');
    assert.equal(recordOf(checked, 'spf').errorCode, 'DNS_CHECK_SERVFAIL');
    assert.deepEqual(recordOf(checked, 'spf').errorParams, { host: 'flaky.example.test', type: 'TXT' });
    dns.fail('flaky.example.test', null);
    dns.remove('flaky.example.test', 'MX');
    const lost = await verifyNow(domain.id);
    assert.equal(lost.status, 'unverified');
    assert.equal(
      recordOf(lost, 'mx').error,
      'flaky.example.test has no MX record: add this record at your DNS host',
    );
  });

  it('refuses a sixth domain, a duplicate, a bad name and the platform’s own names', async () => {
    for (const n of [1, 2, 3, 4, 5]) await add(`d${n}.example.test`);
    const sixth = await api('POST', '/v3/api/config/domains', owner, { name: 'd6.example.test' });
    assert.equal(sixth.statusCode, 400);
    assert.equal(sixth.json().code, 'DOMAIN_LIMIT_REACHED');
    assert.equal(sixth.json().message, 'At most 5 sending domains per account');
    const zh = await api('POST', '/v3/api/config/domains', owner, { name: 'd6.example.test' }, 'zh-cn');
    assert.equal(zh.json().message, '最多只能添加5个发信域名');

    await t.core.database.db.deleteFrom('sending_domains').where('name', '=', 'd5.example.test').execute();
    const dup = await api('POST', '/v3/api/config/domains', owner, { name: 'D1.example.test' });
    assert.equal(dup.statusCode, 409);
    assert.equal(dup.json().code, 'DOMAIN_TAKEN');

    for (const name of ['not a domain', 'localhost', '-bad.example.test', `${'a'.repeat(64)}.test`, '']) {
      const res = await api('POST', '/v3/api/config/domains', owner, { name });
      assert.equal(res.statusCode, 400, name);
      assert.equal(res.json().fields?.[0]?.field, 'name', name);
    }
    const long = await api('POST', '/v3/api/config/domains', owner, { name: `${'a.'.repeat(125)}test` });
    assert.equal(long.json().fields?.[0]?.rule, 'domainNameLength');
    for (const name of [PLATFORM.hostname, PLATFORM.mx, `bounce.${PLATFORM.spf}`]) {
      const res = await api('POST', '/v3/api/config/domains', owner, { name });
      assert.equal(res.statusCode, 400, name);
      assert.equal(res.json().code, 'DOMAIN_RESERVED', name);
    }
    const list = await api('GET', '/v3/api/config/domains?pageNum=2&pageSize=3', owner);
    assert.equal(list.json().data.total, 4);
    assert.deepEqual(
      list.json().data.list.map((d: DomainJson) => d.name),
      ['d4.example.test'],
    );
  });

  it('renames a domain only while none of its records passed', async () => {
    const domain = await add('old.example.test');
    const renamed = await api('PATCH', `/v3/api/config/domains/edited/${domain.id}`, owner, {
      name: 'new.example.test',
    });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.equal(renamed.json().data.name, 'new.example.test');
    assert.equal(recordOf(renamed.json().data, 'spf').host, 'new.example.test');
    dns.set('new.example.test', 'TXT', [`v=spf1 include:${PLATFORM.spf} ~all`]);
    await verifyNow(domain.id);
    const locked = await api('PATCH', `/v3/api/config/domains/edited/${domain.id}`, owner, {
      name: 'newer.example.test',
    });
    assert.equal(locked.statusCode, 409);
    assert.equal(locked.json().code, 'DOMAIN_RENAME_LOCKED');
  });

  it('deletes a domain, unless an API_USER sends from it', async () => {
    const domain = await add('gone.example.test');
    await createApiUser(t.core.database, owner.ctx.accountId, { name: 'bound_user', domainId: domain.id });
    const refused = await api('DELETE', `/v3/api/config/domains/${domain.id}`, owner);
    assert.equal(refused.statusCode, 409);
    assert.equal(refused.json().message, 'The domain is bound to API_USER bound_user; unbind it first');
    await t.core.database.db.deleteFrom('api_users').where('name', '=', 'bound_user').execute();
    const removed = await api('DELETE', `/v3/api/config/domains/${domain.id}`, owner);
    assert.equal(removed.statusCode, 204);
    assert.deepEqual((await api('GET', '/v3/api/config/domains/all', owner)).json().data, []);
  });

  it('hides another account’s domain and needs code 13', async () => {
    const domain = await add('mine.example.test');
    for (const [method, url, body] of [
      ['GET', `/v3/api/config/domains/${domain.id}`],
      ['PATCH', `/v3/api/config/domains/edited/${domain.id}`, { name: 'theirs.example.test' }],
      ['DELETE', `/v3/api/config/domains/${domain.id}`],
      ['POST', `/v3/api/config/domains/verify/${domain.id}`],
      ['GET', `/v3/api/config/domainConfigs/dkim?domainId=${domain.id}`],
    ] as const) {
      const res = await api(method, url, other, body);
      assert.equal(res.statusCode, 404, `${method} ${url}`);
      assert.equal(res.json().code, 'DOMAIN_NOT_FOUND');
    }
    assert.deepEqual((await api('GET', '/v3/api/config/domains/all', other)).json().data, []);

    const sender = await joinedMember(t, owner, 'domain_sender', {
      type: 'custom',
      levels: { [P.EMAIL_SEND]: 'full' },
    });
    const denied = await api('GET', '/v3/api/config/domains', sender);
    assert.equal(denied.statusCode, 403);
    assert.equal(
      (await api('POST', '/v3/api/config/domains', sender, { name: 'x.example.test' })).statusCode,
      403,
    );
    const reader = await joinedMember(t, owner, 'domain_reader', {
      type: 'custom',
      levels: { [P.EMAIL_SETTINGS]: 'read' },
    });
    assert.equal((await api('GET', '/v3/api/config/domains', reader)).statusCode, 200);
    assert.equal((await api('POST', `/v3/api/config/domains/verify/${domain.id}`, reader)).statusCode, 403);
  });

  it('keeps the DKIM private key sealed and signs with it', async () => {
    const domain = await add('keys.example.test');
    const row = await t.core.database.db
      .selectFrom('sending_domains')
      .selectAll()
      .where('id', '=', domain.id)
      .executeTakeFirstOrThrow();
    const key = loadDkimKey(t.core.secretBox, row);
    // The sealed text is random-looking base64url, so it may contain any short run by chance;
    // what must never be there is the PEM armour or any line of the key's own base64 body.
    assert.doesNotMatch(row.dkim_private_key_sealed, /PRIVATE KEY|-----/);
    const pemLines = String(key.privateKey.export({ type: 'pkcs8', format: 'pem' }))
      .split('\n')
      .filter((line) => line.length === 64);
    assert.ok(pemLines.length > 10);
    for (const line of pemLines) assert.ok(!row.dkim_private_key_sealed.includes(line));
    assert.equal(key.selector, row.dkim_selector);
    assert.equal(key.domain, 'keys.example.test');
    assert.equal(key.privateKey.asymmetricKeyDetails?.modulusLength, 2048);
    const publicKey = createPublicKey({
      key: Buffer.from(row.dkim_public_key, 'base64'),
      format: 'der',
      type: 'spki',
    });
    const signature = sign('sha256', Buffer.from('hello'), key.privateKey);
    assert.ok(verify('sha256', Buffer.from('hello'), publicKey, signature));
    assert.throws(() => loadDkimKey(t.core.secretBox, { ...row, account_id: other.ctx.accountId }));

    const dkim = await api('GET', `/v3/api/config/domainConfigs/dkim?domainId=${domain.id}`, owner);
    assert.equal(dkim.json().data.bits, 2048);
    assert.equal(dkim.json().data.record.value, recordOf(domain, 'dkim').value);
    const dmarc = await api('GET', `/v3/api/config/domainConfigs/dmarc?domainId=${domain.id}`, owner);
    assert.equal(dmarc.json().data.record.value, 'v=DMARC1; p=none; rua=mailto:dmarc@keys.example.test');
  });

  it('rotates the DKIM key safely: the old key signs until the new record is published', async () => {
    const domain = await add('rotate.example.test');
    publish(dns, domain, ['spf', 'dkim', 'mx']);
    assert.equal((await verifyNow(domain.id)).status, 'usable');
    const oldHost = recordOf(domain, 'dkim').host;
    const keyRow = () =>
      t.core.database.db
        .selectFrom('sending_domains')
        .selectAll()
        .where('id', '=', domain.id)
        .executeTakeFirstOrThrow();

    const started = await api('POST', '/v3/api/config/domainConfigs/safeDkim', owner, {
      domainId: domain.id,
    });
    assert.equal(started.statusCode, 200, started.body);
    const next = started.json().data.next as DomainJson['records'][number];
    assert.match(next.host, /^hd[0-9a-f]{8}\._domainkey\.rotate\.example\.test$/);
    assert.notEqual(next.host, oldHost);
    assert.equal(next.status, 'pending');
    assert.equal(started.json().data.record.host, oldHost);

    const waiting = await verifyNow(domain.id);
    assert.equal(waiting.status, 'usable');
    assert.equal(recordOf(waiting, 'dkim').host, oldHost);
    const pending = (
      await api('GET', `/v3/api/config/domainConfigs/safeDkim?domainId=${domain.id}`, owner)
    ).json().data.next;
    assert.equal(pending.status, 'missing');
    assert.equal(pending.errorCode, 'DNS_CHECK_NXDOMAIN');
    assert.equal(pending.hostPrefix, `${next.host.split('.')[0]}._domainkey.rotate`);
    assert.equal(loadDkimKey(t.core.secretBox, await keyRow()).selector, oldHost.split('.')[0]);

    dns.set(next.host, 'TXT', [next.value]);
    const rotated = await verifyNow(domain.id);
    assert.equal(rotated.status, 'usable');
    assert.equal(recordOf(rotated, 'dkim').host, next.host);
    assert.equal(recordOf(rotated, 'dkim').status, 'ok');
    const key = loadDkimKey(t.core.secretBox, await keyRow());
    assert.equal(key.selector, next.host.split('.')[0]);
    const published = createPublicKey({
      key: Buffer.from(next.value.split('p=')[1] ?? '', 'base64'),
      format: 'der',
      type: 'spki',
    });
    const signature = sign('sha256', Buffer.from('rotated'), key.privateKey);
    assert.ok(verify('sha256', Buffer.from('rotated'), published, signature));
    const after = (
      await api('GET', `/v3/api/config/domainConfigs/safeDkim?domainId=${domain.id}`, owner)
    ).json().data;
    assert.equal(after.next, null);

    await api('POST', '/v3/api/config/domainConfigs/safeDkim', owner, { domainId: domain.id });
    const cancelled = await api(
      'DELETE',
      `/v3/api/config/domainConfigs/safeDkim?domainId=${domain.id}`,
      owner,
    );
    assert.equal(cancelled.json().data.next, null);
    assert.equal((await keyRow()).dkim_next_private_key_sealed, null);
  });

  it('re-checks due domains in the periodic task, each at its pace', async () => {
    const domain = await add('cron.example.test');
    publish(dns, domain, ['spf', 'dkim', 'mx', 'dmarc']);
    assert.equal(await t.core.domains.recheckDue(), 1, 'never checked: due');
    const row = (await api('GET', `/v3/api/config/domains/${domain.id}`, owner)).json().data as DomainJson;
    assert.equal(row.status, 'verified');
    const minutes = (n: number) => Date.now() + n * 60_000;
    assert.equal(await t.core.domains.recheckDue(), 0, 'just checked: not due');
    assert.equal(await t.core.domains.recheckDue(minutes(6)), 0, 'verified: daily');
    assert.equal(await t.core.domains.recheckDue(minutes(25 * 60)), 1);

    const failing = await add('failing.example.test');
    assert.equal(await t.core.domains.recheckDue(), 1);
    assert.equal(await t.core.domains.recheckDue(minutes(6)), 1, 'new and failing: every five minutes');
    await t.core.database.db
      .updateTable('sending_domains')
      .set({ updated_at: Date.now() - 4 * 24 * 3_600_000 })
      .where('id', '=', failing.id)
      .execute();
    assert.equal(await t.core.domains.recheckDue(minutes(6)), 0, 'old and failing: hourly');
    assert.equal(await t.core.domains.recheckDue(minutes(61)), 1);
  });
});
