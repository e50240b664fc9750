import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS } from '@herald/shared';
import { type DnsServer, startDnsServer } from '@herald/test-peers';
import { DedicatedIpsService } from '../../src/core/dedicated-ips/dedicated-ips.service.ts';
import { TASKS } from '../../src/worker/registry.ts';
import { billDedicatedIps } from '../../src/worker/tasks/bill-dedicated-ips.task.ts';
import { checkDedicatedIps } from '../../src/worker/tasks/check-dedicated-ips.task.ts';
import { createDomain } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { testDialect } from '../helpers/database.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { api, operatorSession } from '../templates/template-helpers.ts';

/** A Beijing wall-clock time as an instant. */
const beijing = (y: number, m: number, d: number, h = 0, min = 0) => Date.UTC(y, m - 1, d, h - 8, min);
const DAY = 86_400_000;

/**
 * Dedicated IPs (issue 18; product-spec §3, §4, §6, §9): purchases through the console calls
 * (paid accounts only, a domain of the account, the balance covering the first month), an
 * address from the operator's pool at once or later by the operator, the MTA's `addressesFor`,
 * the A-record rule against the loopback DNS peer (seen: kept; 7 days without: voided, the
 * address back to the pool), the fees posted on the 1st (the first month by day, whole months,
 * the last part, once however often it runs), tenancy, permissions and the operators' calls.
 */
describe(`dedicated IPs on ${testDialect}`, () => {
  let t: TestApp;
  let dns: DnsServer;
  let call: ReturnType<typeof api>;
  let operator: SignedIn;

  before(async () => {
    dns = await startDnsServer();
    t = await buildTestApp({ env: { HERALD_DNS_SERVERS: dns.address } });
    call = api(t);
    operator = await operatorSession(t);
  });
  after(async () => {
    await t?.close();
    await dns?.close();
  });

  /** An owner whose account is paid, with `yuan` on its balance and one sending domain. */
  const paidOwner = async (name: string, yuan = '2000') => {
    const owner = await createOwner(t, name);
    await t.core.recharges.recordOffline(null, owner.ctx.accountId, {
      amount: yuan,
      remitter: name,
      bankRef: `ref-${name}`,
    });
    const domain = await createDomain(t.core.database, owner.ctx.accountId, {
      name: `${name.replace(/_/g, '-')}.example.com`,
    });
    return { owner, domain };
  };
  const addToPool = async (address: string) => {
    const res = await call('POST', '/v3/api/admin/ipPool', operator, { address });
    assert.equal(res.statusCode, 201, res.body);
  };
  const freeInPool = async () =>
    (
      (await call('GET', '/v3/api/admin/ipPool', operator)).json().data as {
        address: string;
        status: string;
      }[]
    )
      .filter((a) => a.status === 'free')
      .map((a) => a.address);
  const buy = (who: SignedIn, domainId: number, count = 1, months = 12, lang = 'en') =>
    call('POST', '/v3/api/ipResources', who, { domainId, count, months }, lang);
  const clocked = (now: () => number) =>
    new DedicatedIpsService({
      database: t.core.database,
      logger: t.core.logger,
      dnsServers: [dns.address],
      now,
      cacheMs: 0,
    });
  const feesOf = (accountId: number) =>
    t.core.database.db
      .selectFrom('ledger_entries')
      .select(['amount_fen', 'idempotency_key'])
      .where('account_id', '=', accountId)
      .where('idempotency_key', 'like', 'svc:dedicated-ip:%')
      .orderBy('id')
      .execute();

  it('is for paid accounts with a domain of their own and a balance covering the first month', async () => {
    const free = await createOwner(t, 'dip_free');
    const freeDomain = await createDomain(t.core.database, free.ctx.accountId, {
      name: 'dip-free.example.com',
    });
    const refused = await buy(free, freeDomain.id);
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal(refused.json().error, 'The function is open only to paid users');
    const list = (await call('GET', '/v3/api/ipResources', free)).json().data;
    assert.equal(list.paid, false);
    assert.deepEqual(list.domains, [{ id: freeDomain.id, name: 'dip-free.example.com' }]);

    const { owner, domain } = await paidOwner('dip_rules', '9.9');
    for (const [count, months, lang, message] of [
      [1, 11, 'en', 'A purchase lasts 12 to 36 months'],
      [1, 37, 'zh-cn', '购买时长为12到36个月'],
      [11, 12, 'en', 'Enter a number of addresses from 1 to 10'],
      [0, 12, 'en', 'Enter a number of addresses from 1 to 10'],
    ] as const) {
      const res = await buy(owner, domain.id, count, months, lang);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().fields[0].message, message);
    }
    assert.equal((await buy(owner, freeDomain.id)).statusCode, 404, "another account's domain");

    // 9.90 yuan cannot cover the rest of any month (one day at least: 500/31 yuan).
    const poor = await buy(owner, domain.id);
    assert.equal(poor.statusCode, 402, poor.body);
    assert.match(
      poor.json().error,
      /^Insufficient balance: this month costs \d+\.\d\d yuan and the balance is 9\.90 yuan/,
    );
    const cost = (await call('GET', '/v3/api/ipResources/cost?count=2&months=12', owner)).json().data;
    assert.equal(cost.monthlyFen, 100_000);
    assert.equal(cost.totalFen, 1_200_000);
    assert.equal(cost.balanceFen, 990);
    assert.equal(cost.firstMonthFen, 2 * Math.ceil((50_000 * cost.firstMonthDays) / cost.monthDays));
    assert.equal(cost.enough, false);
    assert.equal((await call('GET', '/v3/api/ipResources', owner)).json().data.list.length, 0);
  });

  it('assigns a free pool address at once, and the MTA sends that domain from it', async () => {
    await addToPool('127.0.0.2');
    const duplicate = await call('POST', '/v3/api/admin/ipPool', operator, { address: '127.0.0.2' });
    assert.equal(duplicate.statusCode, 409);
    const bad = await call('POST', '/v3/api/admin/ipPool', operator, { address: '127.0.0.300' });
    assert.equal(bad.statusCode, 400);

    const { owner, domain } = await paidOwner('dip_pool');
    const other = await createDomain(t.core.database, owner.ctx.accountId, {
      name: 'dip-pool-other.example.com',
    });
    const res = await buy(owner, domain.id);
    assert.equal(res.statusCode, 201, res.body);
    const [bought] = res.json().data;
    assert.equal(bought.status, 'active');
    assert.equal(bought.address, '127.0.0.2');
    assert.equal(bought.months, 12);
    assert.deepEqual(
      { host: bought.aRecord.host, type: bought.aRecord.type, value: bought.aRecord.value },
      { host: 'dip-pool.example.com', type: 'A', value: '127.0.0.2' },
    );
    assert.equal(bought.aRecord.deadline, bought.startsAt + 7 * DAY);
    assert.deepEqual(await freeInPool(), []);
    const pool = (await call('GET', '/v3/api/admin/ipPool', operator)).json().data;
    const entry = pool.find((a: { address: string }) => a.address === '127.0.0.2');
    assert.deepEqual([entry.status, entry.purchaseId], ['assigned', bought.id]);

    const ips = t.core.dedicatedIps;
    assert.deepEqual(await ips.addressesFor(owner.ctx.accountId, 'dip-pool.example.com'), ['127.0.0.2']);
    assert.deepEqual(await ips.addressesFor(owner.ctx.accountId, 'DIP-POOL.example.com'), ['127.0.0.2']);
    assert.deepEqual(
      await ips.addressesFor(owner.ctx.accountId, other.name),
      [],
      'another domain: the default',
    );
    const stranger = await createOwner(t, 'dip_stranger');
    assert.deepEqual(await ips.addressesFor(stranger.ctx.accountId, 'dip-pool.example.com'), []);

    const info = (await call('GET', '/v3/api/config/independentIpInfo', owner)).json().data;
    assert.deepEqual(info.domains, [
      {
        domainId: domain.id,
        domain: 'dip-pool.example.com',
        addresses: [
          {
            purchaseId: bought.id,
            address: '127.0.0.2',
            status: 'active',
            aRecordSeen: false,
            aRecordDeadline: bought.aRecord.deadline,
          },
        ],
      },
    ]);
  });

  it('waits for the operator when the pool is empty, then starts on assignment', async () => {
    assert.deepEqual(await freeInPool(), []);
    const { owner, domain } = await paidOwner('dip_wait');
    const res = await buy(owner, domain.id, 2, 24);
    assert.equal(res.statusCode, 201, res.body);
    const waiting = res.json().data as { id: number; status: string; address: null; startsAt: null }[];
    assert.deepEqual(
      waiting.map((p) => [p.status, p.address, p.startsAt]),
      [
        ['pending', null, null],
        ['pending', null, null],
      ],
    );
    assert.deepEqual(await t.core.dedicatedIps.addressesFor(owner.ctx.accountId, domain.name), []);
    const [first, second] = waiting;
    assert.ok(first && second);

    const listed = (await call('GET', '/v3/api/admin/dedicatedIps?status=pending', operator)).json().data;
    assert.deepEqual(
      listed.map((p: { id: number; userName: string }) => [p.id, p.userName]).sort(),
      [
        [first.id, 'dip_wait'],
        [second.id, 'dip_wait'],
      ].sort(),
    );
    const notInPool = await call('POST', `/v3/api/admin/dedicatedIps/${first.id}/assign`, operator, {
      address: '127.0.0.3',
    });
    assert.equal(notInPool.statusCode, 409, notInPool.body);
    const noneFree = await call('POST', `/v3/api/admin/dedicatedIps/${first.id}/assign`, operator, {});
    assert.equal(noneFree.statusCode, 409, noneFree.body);

    await addToPool('127.0.0.3');
    await addToPool('127.0.0.4');
    const assigned = await call('POST', `/v3/api/admin/dedicatedIps/${first.id}/assign`, operator, {
      address: '127.0.0.4',
    });
    assert.equal(assigned.statusCode, 200, assigned.body);
    assert.equal(assigned.json().data.status, 'active');
    assert.equal(assigned.json().data.address, '127.0.0.4');
    const again = await call('POST', `/v3/api/admin/dedicatedIps/${first.id}/assign`, operator, {
      address: '127.0.0.3',
    });
    assert.equal(again.statusCode, 409, 'no longer waiting');
    const oldest = await call('POST', `/v3/api/admin/dedicatedIps/${second.id}/assign`, operator);
    assert.equal(oldest.json().data.address, '127.0.0.3', 'the oldest free address');
    assert.deepEqual((await t.core.dedicatedIps.addressesFor(owner.ctx.accountId, domain.name)).sort(), [
      '127.0.0.3',
      '127.0.0.4',
    ]);
    const mine = (await call('GET', `/v3/api/ipResources/${first.id}`, owner)).json().data;
    assert.equal(mine.status, 'active');
    assert.equal(mine.endsAt > mine.startsAt + 729 * DAY, true, 'two years');
  });

  it('keeps an address whose A record is published, voids one without it after 7 days', async () => {
    let now = Date.now();
    const ips = clocked(() => now);
    // The earlier purchases publish theirs, so only this test's purchases can be voided here.
    dns.set('dip-pool.example.com', 'A', ['127.0.0.2']);
    dns.set('dip-wait.example.com', 'A', ['127.0.0.3', '127.0.0.4']);
    await addToPool('127.0.0.5');
    await addToPool('127.0.0.6');
    const { owner, domain } = await paidOwner('dip_arec');
    const [kept, lost] = await ips.purchase(owner.ctx, { domainId: domain.id, count: 2, months: 12 });
    assert.ok(kept && lost);
    assert.deepEqual([kept.address, lost.address], ['127.0.0.5', '127.0.0.6']);

    assert.ok(TASKS.some((task) => task.job === checkDedicatedIps && task.cron === '*/5 * * * *'));
    assert.ok(TASKS.some((task) => task.job === billDedicatedIps));
    const first = await ips.checkDue();
    assert.deepEqual(first, { checked: 5, seen: 3, voided: 0, expired: 0 });
    assert.ok(dns.queries.some((q) => q.name === 'dip-arec.example.com' && q.type === 'A'));
    const checked = await ips.get(owner.ctx, kept.id);
    assert.equal(checked.aRecord.seenAt, null);
    assert.equal(checked.aRecord.error, 'no such domain (NXDOMAIN)');

    dns.set('dip-arec.example.com', 'A', ['127.0.0.5', '192.0.2.1']);
    now += 2 * DAY;
    await ips.checkDue();
    const seen = await ips.get(owner.ctx, kept.id);
    assert.equal(seen.aRecord.seenAt, now);
    assert.equal((await ips.get(owner.ctx, lost.id)).aRecord.error, 'found 127.0.0.5, 192.0.2.1');

    // Six days and a bit after the assignment: still within the 7 days.
    now = kept.startsAt as number;
    now += 7 * DAY - 60_000;
    assert.equal((await ips.checkDue()).voided, 0);
    now += 60_000;
    const late = await ips.checkDue();
    assert.equal(late.voided, 1);
    const voided = await ips.get(owner.ctx, lost.id);
    assert.equal(voided.status, 'voided');
    assert.equal(voided.voidReason, 'a_record_missing');
    assert.equal((await ips.get(owner.ctx, kept.id)).status, 'active', 'the one with its record stays');
    assert.deepEqual(await freeInPool(), ['127.0.0.6'], 'the address went back to the pool');
    assert.deepEqual(await ips.addressesFor(owner.ctx.accountId, domain.name), ['127.0.0.5']);
    const shown = (await call('GET', '/v3/api/ipResources', owner)).json().data.list;
    assert.deepEqual(
      shown.map((p: { status: string; address: string }) => [p.status, p.address]),
      [
        ['voided', '127.0.0.6'],
        ['active', '127.0.0.5'],
      ],
    );
    // A voided purchase is never billed.
    now = beijing(2028, 1, 1, 1);
    await ips.billDue();
    assert.deepEqual(
      (await feesOf(owner.ctx.accountId)).filter((f) =>
        f.idempotency_key.startsWith(`svc:dedicated-ip:${lost.id}:`),
      ),
      [],
    );
  });

  it('posts the fees on the 1st: the first month by day, whole months, the last part, once', async () => {
    let now = beijing(2026, 3, 15, 10);
    const ips = clocked(() => now);
    const { owner, domain } = await paidOwner('dip_fees', '20000');
    const free = await freeInPool();
    if (free.length === 0) await addToPool('127.0.0.7');
    const [bought] = await ips.purchase(owner.ctx, { domainId: domain.id, count: 1, months: 12 });
    assert.ok(bought?.address);
    assert.equal(bought.endsAt, beijing(2027, 3, 15, 10));
    dns.set('dip-fees.example.com', 'A', [bought.address]);
    await ips.checkDue();

    now = beijing(2026, 3, 31, 23, 59);
    await ips.billDue();
    assert.deepEqual(await feesOf(owner.ctx.accountId), [], 'March has not ended');
    const balanceBefore = await t.core.ledger.balance(owner.ctx);
    now = beijing(2026, 4, 1, 0, 5);
    // Two workers at once, then again: one entry.
    await Promise.all([ips.billDue(), ips.billDue()]);
    await ips.billDue();
    // 15–31 March: 17 of 31 days, ceil(50000 × 17 / 31) = 27420 fen.
    assert.deepEqual(await feesOf(owner.ctx.accountId), [
      { amount_fen: -27_420, idempotency_key: `svc:dedicated-ip:${bought.id}:2026-03` },
    ]);
    assert.equal(await t.core.ledger.balance(owner.ctx), balanceBefore - 27_420);

    now = beijing(2026, 5, 1, 0, 5);
    await ips.billDue();
    await ips.billDue();
    assert.equal((await feesOf(owner.ctx.accountId)).length, 2);
    assert.deepEqual((await feesOf(owner.ctx.accountId)).at(-1), {
      amount_fen: -50_000,
      idempotency_key: `svc:dedicated-ip:${bought.id}:2026-04`,
    });

    // A year on: it expires on 15 March 2027 and the months not yet billed are caught up, the last
    // one for 1–14 March (ceil(50000 × 14 / 31) = 22581 fen).
    now = beijing(2027, 4, 1, 0, 5);
    assert.equal((await ips.checkDue()).expired, 1);
    assert.equal((await ips.get(owner.ctx, bought.id)).status, 'expired');
    assert.deepEqual(await ips.addressesFor(owner.ctx.accountId, domain.name), []);
    assert.ok((await freeInPool()).includes(bought.address));
    await ips.billDue();
    await ips.billDue();
    const fees = await feesOf(owner.ctx.accountId);
    assert.equal(fees.length, 13);
    assert.deepEqual(fees.at(-1), {
      amount_fen: -22_581,
      idempotency_key: `svc:dedicated-ip:${bought.id}:2027-03`,
    });
    assert.equal(
      fees.reduce((sum, f) => sum + Number(f.amount_fen), 0),
      -(27_420 + 11 * 50_000 + 22_581),
    );
    assert.equal(await t.core.ledger.drift(), 0);
  });

  it('keeps accounts apart, checks permissions, and leaves the pool to operators', async () => {
    const { owner } = await paidOwner('dip_tenant');
    const { owner: other } = await paidOwner('dip_other');
    const mine = (await call('GET', '/v3/api/admin/dedicatedIps', operator))
      .json()
      .data.find((p: { userName: string }) => p.userName === 'dip_wait');
    assert.ok(mine);
    assert.equal((await call('GET', `/v3/api/ipResources/${mine.id}`, other)).statusCode, 404);
    assert.equal((await call('GET', '/v3/api/ipResources/999999', owner)).statusCode, 404);
    assert.deepEqual((await call('GET', '/v3/api/config/independentIpInfo', other)).json().data, {
      domains: [],
    });

    const visitor = await joinedMember(t, owner, 'dip_visitor', { type: 'visitor' });
    assert.equal((await call('GET', '/v3/api/ipResources', visitor)).statusCode, 200, 'a visitor may look');
    const domainId = (await call('GET', '/v3/api/ipResources', owner)).json().data.domains[0].id;
    assert.equal((await buy(visitor, domainId)).statusCode, 403);
    const sender = await joinedMember(t, owner, 'dip_sender', {
      type: 'custom',
      levels: { [PERMISSIONS.EMAIL_SEND]: 'full' },
    });
    assert.equal((await call('GET', '/v3/api/ipResources', sender)).statusCode, 403);
    assert.equal((await call('GET', '/v3/api/config/independentIpInfo', sender)).statusCode, 403);

    for (const [method, url] of [
      ['GET', '/v3/api/admin/ipPool'],
      ['POST', '/v3/api/admin/ipPool'],
      ['GET', '/v3/api/admin/dedicatedIps'],
      ['POST', `/v3/api/admin/dedicatedIps/${mine.id}/assign`],
    ] as const) {
      assert.equal(
        (await call(method, url, owner, method === 'POST' ? { address: '127.0.0.9' } : undefined)).statusCode,
        403,
        url,
      );
    }
    assert.equal((await call('GET', '/v3/api/ipResources', null)).statusCode, 401);
  });
});
