import assert from 'node:assert/strict';
import { Resolver } from 'node:dns/promises';
import { connect } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import dnsPacket, { type Packet } from 'dns-packet';
import { type DnsServer, startDnsServer } from '../src/dns-server.ts';

describe('dns-server', () => {
  let dns: DnsServer;
  let resolver: Resolver;

  before(async () => {
    dns = await startDnsServer();
    resolver = new Resolver({ timeout: 300, tries: 1 });
    resolver.setServers([dns.address]);
  });
  after(() => dns.close());
  beforeEach(() => dns.clear());

  it('listens on loopback with one address for UDP and TCP', () => {
    assert.equal(dns.host, '127.0.0.1');
    assert.ok(dns.port > 0);
    assert.equal(dns.address, `127.0.0.1:${dns.port}`);
  });

  it('answers MX, A, AAAA and NS, case-insensitively and tolerating a trailing dot', async () => {
    dns.set('Example.TEST.', 'MX', [
      { priority: 10, exchange: 'mx1.example.test' },
      { priority: 20, exchange: 'mx2.example.test' },
    ]);
    dns.set('mx1.example.test', 'A', ['127.0.0.1', '127.0.0.2']);
    dns.set('mx1.example.test', 'AAAA', ['::1']);
    dns.set('example.test', 'NS', ['ns1.example.test']);
    const mx = await resolver.resolveMx('example.test');
    assert.deepEqual(
      mx.map(({ priority, exchange }) => ({ priority, exchange })).sort((a, b) => a.priority - b.priority),
      [
        { priority: 10, exchange: 'mx1.example.test' },
        { priority: 20, exchange: 'mx2.example.test' },
      ],
    );
    assert.deepEqual((await resolver.resolve4('MX1.example.test.')).sort(), ['127.0.0.1', '127.0.0.2']);
    assert.deepEqual(await resolver.resolve6('mx1.example.test'), ['::1']);
    assert.deepEqual(await resolver.resolveNs('example.test'), ['ns1.example.test']);
    assert.deepEqual(dns.queries[0], { name: 'example.test', type: 'MX', transport: 'udp' });
  });

  it('splits long TXT values into 255-byte strings (a DKIM key)', async () => {
    const key = `v=DKIM1; k=rsa; p=${'A'.repeat(282)}`;
    assert.equal(key.length, 300);
    dns.set('herald._domainkey.example.test', 'TXT', [key]);
    dns.set('example.test', 'TXT', ['v=spf1 -all', ['part one ', 'part two']]);
    const dkim = await resolver.resolveTxt('herald._domainkey.example.test');
    assert.equal(dkim.length, 1);
    assert.deepEqual(
      dkim[0]?.map((chunk) => chunk.length),
      [255, 45],
    );
    assert.equal(dkim[0]?.join(''), key);
    const txt = await resolver.resolveTxt('example.test');
    assert.deepEqual(txt.map((r) => r.join('')).sort(), ['part one part two', 'v=spf1 -all']);
  });

  it('truncates big UDP replies so the resolver retries over TCP', async () => {
    const records = Array.from({ length: 8 }, (_, i) => `record-${i}-${'x'.repeat(400)}`);
    dns.set('big.example.test', 'TXT', records);
    const txt = await resolver.resolveTxt('big.example.test');
    assert.deepEqual(txt.map((r) => r.join('')).sort(), records.sort());
    assert.deepEqual(
      dns.queries.map((q) => q.transport),
      ['udp', 'tcp'],
    );
  });

  it('answers a CNAME and follows it inside the table', async () => {
    dns.set('www.example.test', 'CNAME', ['web.example.test']);
    dns.set('web.example.test', 'A', ['127.0.0.9']);
    dns.set('alias.example.test', 'CNAME', ['elsewhere.invalid']);
    assert.deepEqual(await resolver.resolveCname('www.example.test'), ['web.example.test']);
    assert.deepEqual(await resolver.resolve4('www.example.test'), ['127.0.0.9']);
    // The target is outside the table: the reply carries only the CNAME, so no addresses.
    assert.deepEqual(await resolver.resolve4('alias.example.test'), []);
    assert.deepEqual(await resolver.resolveCname('alias.example.test'), ['elsewhere.invalid']);
  });

  it('maps unknown names to NXDOMAIN and missing types to an empty answer', async () => {
    dns.set('example.test', 'A', ['127.0.0.1']);
    dns.set('_dmarc.sub.example.test', 'TXT', ['v=DMARC1; p=none']);
    await assert.rejects(resolver.resolve4('nope.example.test'), { code: 'ENOTFOUND' });
    await assert.rejects(resolver.resolveMx('example.test'), { code: 'ENODATA' });
    await assert.rejects(resolver.resolveTxt('sub.example.test'), { code: 'ENODATA' });
    dns.set('empty.example.test', 'MX', []);
    await assert.rejects(resolver.resolveMx('empty.example.test'), { code: 'ENODATA' });
  });

  it('scripts SERVFAIL and timeouts per name, and lifts them', async () => {
    dns.set('example.test', 'A', ['127.0.0.1']);
    dns.fail('example.test', 'SERVFAIL');
    await assert.rejects(resolver.resolve4('example.test'), { code: 'ESERVFAIL' });
    dns.fail('EXAMPLE.test', 'timeout');
    await assert.rejects(resolver.resolve4('example.test'), { code: 'ETIMEOUT' });
    dns.fail('example.test', null);
    assert.deepEqual(await resolver.resolve4('example.test'), ['127.0.0.1']);
  });

  it('removes one type or a whole name', async () => {
    dns.set('example.test', 'A', ['127.0.0.1']);
    dns.set('example.test', 'TXT', ['hello']);
    dns.remove('example.test', 'A');
    await assert.rejects(resolver.resolve4('example.test'), { code: 'ENODATA' });
    dns.remove('example.test');
    await assert.rejects(resolver.resolveTxt('example.test'), { code: 'ENOTFOUND' });
  });

  it('speaks length-prefixed DNS over TCP with the AA flag set', async () => {
    dns.set('example.test', 'A', ['127.0.0.1']);
    const query: Packet = {
      type: 'query',
      id: 4242,
      flags: dnsPacket.RECURSION_DESIRED,
      questions: [{ type: 'A', name: 'example.test' }],
    };
    const socket = connect(dns.port, dns.host);
    socket.write(dnsPacket.streamEncode(query));
    const reply = await new Promise<Buffer>((resolve, reject) => {
      let buffer = Buffer.alloc(0);
      socket.on('data', (data: Buffer) => {
        buffer = Buffer.concat([buffer, data]);
        if (buffer.length >= 2 && buffer.length >= 2 + buffer.readUInt16BE(0)) resolve(buffer);
      });
      socket.on('error', reject);
    });
    socket.destroy();
    const answer = dnsPacket.decode(reply.subarray(2));
    assert.equal(answer.id, 4242);
    assert.equal(answer.flag_aa, true);
    assert.equal(answer.flag_rd, true);
    assert.deepEqual(
      answer.answers?.map((a) => ('data' in a ? a.data : undefined)),
      ['127.0.0.1'],
    );
    assert.equal(dns.queries.at(-1)?.transport, 'tcp');
  });
});
