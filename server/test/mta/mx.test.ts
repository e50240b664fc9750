import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type DnsServer, startDnsServer } from '@herald/test-peers';
import { composeMail } from '../../src/lib/compose-mail.ts';
import { createResolver, type DnsResolver } from '../../src/lib/dns-resolver.ts';
import { resolveAddresses, resolveMx } from '../../src/mta/mx.ts';
import { deliverMail } from '../../src/mta/smtp-delivery.ts';

/** MX resolution against the loopback DNS peer, through the resolver HERALD_DNS_SERVERS configures. */
describe('MX resolution', () => {
  let dns: DnsServer;
  let resolver: DnsResolver;

  before(async () => {
    dns = await startDnsServer();
    resolver = createResolver([dns.address], { timeoutMs: 200, tries: 1 });
  });
  after(() => dns.close());
  beforeEach(() => dns.clear());

  it('lists MX hosts by preference, lower-cased and without the trailing dot', async () => {
    dns.set('example.test', 'MX', [
      { priority: 30, exchange: 'MX3.example.test.' },
      { priority: 10, exchange: 'mx1.example.test' },
      { priority: 20, exchange: 'mx2.example.test' },
    ]);
    assert.deepEqual(await resolveMx(resolver, 'example.test'), {
      kind: 'hosts',
      implicit: false,
      hosts: [
        { host: 'mx1.example.test', priority: 10 },
        { host: 'mx2.example.test', priority: 20 },
        { host: 'mx3.example.test', priority: 30 },
      ],
    });
  });

  it('falls back to the domain itself when it has no MX but an A or AAAA record', async () => {
    dns.set('plain.test', 'AAAA', ['::1']);
    assert.deepEqual(await resolveMx(resolver, 'plain.test'), {
      kind: 'hosts',
      implicit: true,
      hosts: [{ host: 'plain.test', priority: 0 }],
    });
  });

  it('fails for good on a null MX, an unknown domain, or a domain with neither MX nor address', async () => {
    dns.set('nomail.test', 'MX', [{ priority: 0, exchange: '.' }]);
    dns.set('bare.test', 'TXT', ['v=spf1 -all']);
    assert.deepEqual(await resolveMx(resolver, 'nomail.test'), {
      kind: 'failed',
      permanent: true,
      reason: 'nomail.test: domain accepts no mail (null MX)',
    });
    assert.deepEqual(await resolveMx(resolver, 'nowhere.test'), {
      kind: 'failed',
      permanent: true,
      reason: 'nowhere.test: no such domain (NXDOMAIN)',
    });
    assert.deepEqual(await resolveMx(resolver, 'bare.test'), {
      kind: 'failed',
      permanent: true,
      reason: 'bare.test: no MX and no address records',
    });
  });

  it('fails for now on SERVFAIL and on a timeout', async () => {
    dns.fail('broken.test', 'SERVFAIL');
    dns.fail('silent.test', 'timeout');
    assert.deepEqual(await resolveMx(resolver, 'broken.test'), {
      kind: 'failed',
      permanent: false,
      reason: 'broken.test: MX look-up failed: DNS server failure (SERVFAIL)',
    });
    assert.deepEqual(await resolveMx(resolver, 'silent.test'), {
      kind: 'failed',
      permanent: false,
      reason: 'silent.test: MX look-up failed: DNS timeout',
    });
  });

  it('resolves an MX host to its IPv4 then IPv6 addresses', async () => {
    dns.set('mx.example.test', 'A', ['192.0.2.1']);
    dns.set('mx.example.test', 'AAAA', ['2001:db8::1']);
    assert.deepEqual(await resolveAddresses(resolver, 'mx.example.test'), {
      kind: 'addresses',
      addresses: ['192.0.2.1', '2001:db8::1'],
    });
    assert.deepEqual(await resolveAddresses(resolver, '192.0.2.7'), {
      kind: 'addresses',
      addresses: ['192.0.2.7'],
    });
  });

  it('defers a delivery whose DNS answer cannot be had now, and one whose MX hosts have no address', async () => {
    const mail = await composeMail({
      from: 'Herald <no-reply@herald.test>',
      to: 'someone@broken.test',
      subject: 'x',
      text: 'x',
      messageId: '<1@herald.test>',
      date: new Date(),
    });
    dns.fail('broken.test', 'SERVFAIL');
    const options = { resolver, port: 9, heloName: 'herald.test' };
    assert.deepEqual(await deliverMail(options, mail), {
      kind: 'deferred',
      reply: 'broken.test: MX look-up failed: DNS server failure (SERVFAIL)',
      host: null,
    });
    dns.fail('broken.test', null);
    dns.set('broken.test', 'MX', [{ priority: 10, exchange: 'ghost.broken.test' }]);
    assert.deepEqual(await deliverMail(options, mail), {
      kind: 'deferred',
      reply: 'ghost.broken.test: no such host (NXDOMAIN)',
      host: null,
    });
  });
});
