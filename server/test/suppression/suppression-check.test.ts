import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SuppressionService } from '../../src/core/suppression/suppression.service.ts';
import { SuppressionListsService } from '../../src/core/suppression/suppression-lists.service.ts';
import { createSender, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The pipeline's suppression check against a real database with an injected clock: each list's
 * expiry, the order and mapping of check(), scopes, tenancy, and what recordFailure() adds.
 */
describe('suppression check', () => {
  let t: TestApp;
  let clock: number;
  let check: SuppressionService;
  let lists: SuppressionListsService;
  let a: Sender;
  let b: Sender;
  const batch = (f: Sender) => ({ apiUserId: f.apiUserId, labelId: null, emailType: 'batch' as const });
  const trigger = (f: Sender) => ({
    apiUserId: f.apiUserId,
    labelId: null,
    emailType: 'trigger' as const,
  });
  const notExist = (at: number) => ({
    category: 'not_exist' as const,
    kind: 'invalid' as const,
    detail: '550 5.1.1 user unknown',
    at,
  });

  before(async () => {
    t = await buildTestApp();
    clock = Date.UTC(2026, 0, 10, 8, 0, 0);
    check = new SuppressionService(t.core.database, { now: () => clock });
    lists = new SuppressionListsService(t.core.database, check, { now: () => clock });
    a = await createSender(t.core.database);
    b = await createSender(t.core.database);
  });
  after(() => t?.close());

  it('lets an address on no list through', async () => {
    assert.equal(await check.check(a.accountId, 'free@example.org', batch(a)), null);
  });

  it('blocks a non-existent address for every account 2^n hours, n = times seen, at most 30 days', async () => {
    const addr = 'ghost@example.org';
    const start = clock;
    await check.recordFailure(a.accountId, 'Ghost@Example.org', notExist(start));
    const hit = await check.check(b.accountId, addr, batch(b));
    assert.equal(hit?.list, 'global_invalid');
    assert.equal(hit?.reason, 'blacklist');
    assert.equal(hit?.subStatus, 401);
    assert.match(
      hit?.detail ?? '',
      /^in blacklist \(address does not exist, seen 1×, until 2026-01-10 10:00 UTC\)$/,
    );
    clock = start + 2 * HOUR - 1;
    assert.notEqual(await check.check(b.accountId, addr, batch(b)), null);
    clock = start + 2 * HOUR;
    assert.equal(await check.check(b.accountId, addr, batch(b)), null, 'first sighting blocks 2 hours');

    await check.recordFailure(b.accountId, addr, notExist(clock));
    const second = clock;
    clock = second + 4 * HOUR - 1;
    assert.equal((await check.check(a.accountId, addr, batch(a)))?.list, 'global_invalid');
    clock = second + 4 * HOUR;
    assert.equal(await check.check(a.accountId, addr, trigger(a)), null, 'second sighting blocks 4 hours');

    for (let n = 3; n <= 12; n += 1) await check.recordFailure(a.accountId, addr, notExist(clock));
    const row = await t.core.database.db
      .selectFrom('suppression_global_invalid')
      .selectAll()
      .where('address', '=', addr)
      .executeTakeFirstOrThrow();
    assert.equal(row.times_seen, 12);
    assert.equal(Number(row.blocked_until) - clock, 30 * DAY, '2^12 hours is capped at 30 days');
    clock += 30 * DAY;
    assert.equal(await check.check(b.accountId, addr, batch(b)), null);
  });

  it('puts a non-existent address on the account bounce list; deleting it releases the address for that account only', async () => {
    const addr = 'nobody@bounce.example';
    await check.recordFailure(a.accountId, addr, notExist(clock));
    const page = await lists.find({ accountId: a.accountId }, { list: 'bounce', addresses: [addr] }, 0, 10);
    assert.equal(page.total, 1);
    assert.equal(page.rows[0]?.reason, 'not_exist');
    assert.equal(page.rows[0]?.detail, '550 5.1.1 user unknown');
    assert.equal(page.rows[0]?.expiresAt, clock + 2 * HOUR);
    assert.equal(
      (await lists.find({ accountId: b.accountId }, { list: 'bounce', addresses: [addr] }, 0, 10)).total,
      0,
    );

    await lists.remove({ accountId: a.accountId }, 'bounce', page.rows[0]?.id ?? 0);
    assert.equal(
      await check.check(a.accountId, addr, batch(a)),
      null,
      'released for the account that deleted it',
    );
    assert.equal(
      (await check.check(b.accountId, addr, batch(b)))?.list,
      'global_invalid',
      'others stay protected',
    );
    clock += 1000;
    await check.recordFailure(b.accountId, addr, notExist(clock));
    assert.equal(
      (await check.check(a.accountId, addr, batch(a)))?.list,
      'global_invalid',
      'a new bounce blocks again',
    );
    clock += 5 * HOUR;
  });

  it('keeps a spam report 180 days, a block list entry forever, and maps both to 401', async () => {
    await check.recordComplaint({ accountId: a.accountId }, 'angry@example.org', 'report_spam');
    await check.recordFailure(a.accountId, 'filter@example.org', {
      category: 'spam',
      kind: 'invalid',
      detail: '550 5.7.1 message looks like spam',
      at: clock,
    });
    await lists.add({ accountId: a.accountId }, 'user_defined', ['blocked@example.org']);
    for (const addr of ['angry@example.org', 'filter@example.org']) {
      const hit = await check.check(a.accountId, addr, trigger(a));
      assert.deepEqual([hit?.list, hit?.reason, hit?.subStatus], ['spam', 'blacklist', 401]);
    }
    const blocked = await check.check(a.accountId, 'BLOCKED@example.org', trigger(a));
    assert.deepEqual([blocked?.list, blocked?.subStatus], ['user_defined', 401]);
    assert.equal(await check.check(b.accountId, 'angry@example.org', batch(b)), null, 'per account');
    assert.equal(await check.check(b.accountId, 'blocked@example.org', batch(b)), null, 'per account');

    const start = clock;
    clock = start + 180 * DAY - 1;
    assert.equal((await check.check(a.accountId, 'angry@example.org', batch(a)))?.list, 'spam');
    clock = start + 180 * DAY;
    assert.equal(await check.check(a.accountId, 'angry@example.org', batch(a)), null);
    clock = start + 5 * 365 * DAY;
    assert.equal((await check.check(a.accountId, 'blocked@example.org', batch(a)))?.list, 'user_defined');
  });

  it('stops batch mail to an unsubscribed address with 402, within the entry scope, and lets trigger mail through', async () => {
    await lists.add({ accountId: a.accountId }, 'unsubscribe', ['all@example.org']);
    await lists.add({ accountId: a.accountId }, 'unsubscribe', ['scoped@example.org'], {
      labelId: a.labelId,
    });
    const hit = await check.check(a.accountId, 'all@example.org', batch(a));
    assert.deepEqual([hit?.list, hit?.reason, hit?.subStatus], ['unsubscribe', 'unsubscribed', 402]);
    assert.match(hit?.detail ?? '', /^unsubscribed/);
    assert.equal(await check.check(a.accountId, 'all@example.org', trigger(a)), null);
    assert.equal(await check.check(a.accountId, 'scoped@example.org', batch(a)), null, 'other label');
    const labelled = { apiUserId: a.apiUserId, labelId: a.labelId, emailType: 'batch' as const };
    assert.equal((await check.check(a.accountId, 'scoped@example.org', labelled))?.list, 'unsubscribe');
  });

  it('applies custom interception rules by address, domain and keyword, per API_USER or all', async () => {
    await lists.addRule(
      { accountId: a.accountId },
      {
        type: 'domain',
        value: 'competitor.example',
        apiUserId: undefined,
        note: undefined,
      },
    );
    await lists.addRule(
      { accountId: a.accountId },
      {
        type: 'keyword',
        value: 'noreply',
        apiUserId: a.apiUserId,
        note: 'no robots',
      },
    );
    await lists.addRule(
      { accountId: a.accountId },
      {
        type: 'address',
        value: 'ceo@example.org',
        apiUserId: undefined,
        note: undefined,
      },
    );
    const ctx = batch(a);
    const sub = await check.check(a.accountId, 'x@mail.competitor.example', ctx);
    assert.deepEqual([sub?.list, sub?.reason, sub?.subStatus], ['intercept', 'blacklist', 401]);
    assert.match(sub?.detail ?? '', /custom interception rule domain competitor\.example/);
    assert.equal(await check.check(a.accountId, 'x@notcompetitor.example', ctx), null);
    assert.equal((await check.check(a.accountId, 'noreply-7@example.org', ctx))?.list, 'intercept');
    assert.equal(
      await check.check(a.accountId, 'noreply-7@example.org', { ...ctx, apiUserId: a.apiUserId + 999 }),
      null,
    );
    assert.equal((await check.check(a.accountId, 'CEO@example.org', ctx))?.list, 'intercept');
    assert.equal(await check.check(b.accountId, 'x@competitor.example', batch(b)), null);
  });

  it('skips interception rules, and only them, for an account that sends without interception', async () => {
    const wired = t.core.suppression;
    await lists.addRule(
      { accountId: a.accountId },
      {
        type: 'address',
        value: 'skip@example.org',
        apiUserId: undefined,
        note: undefined,
      },
    );
    await lists.add({ accountId: a.accountId }, 'user_defined', ['blocked-anyway@example.org']);
    wired.rulesChanged({ accountId: a.accountId });
    assert.equal((await wired.check(a.accountId, 'skip@example.org', batch(a)))?.list, 'intercept');
    await t.core.senderConfigs.setSwitch({ accountId: a.accountId }, 'intercept', true);
    assert.equal(await wired.check(a.accountId, 'skip@example.org', batch(a)), null);
    assert.equal(
      (await wired.check(a.accountId, 'blocked-anyway@example.org', batch(a)))?.list,
      'user_defined',
    );
    await t.core.senderConfigs.setSwitch({ accountId: a.accountId }, 'intercept', false);
  });

  it('answers the first matching list: global, bounce, spam, block list, unsubscribe, rule', async () => {
    const addr = 'everywhere@example.org';
    await lists.add({ accountId: a.accountId }, 'unsubscribe', [addr]);
    await lists.addRule(
      { accountId: a.accountId },
      { type: 'address', value: addr, apiUserId: undefined, note: undefined },
    );
    assert.equal((await check.check(a.accountId, addr, batch(a)))?.list, 'unsubscribe');
    await lists.add({ accountId: a.accountId }, 'user_defined', [addr]);
    assert.equal((await check.check(a.accountId, addr, batch(a)))?.list, 'user_defined');
    await check.recordComplaint({ accountId: a.accountId }, addr, 'fbl');
    assert.equal((await check.check(a.accountId, addr, batch(a)))?.list, 'spam');
    await check.recordFailure(a.accountId, addr, notExist(clock));
    assert.equal((await check.check(a.accountId, addr, batch(a)))?.list, 'global_invalid');
  });

  it('checks a batch of recipients at once, each with its own verdict, in order', async () => {
    await lists.add({ accountId: a.accountId }, 'user_defined', ['many-blocked@example.org']);
    await lists.add({ accountId: a.accountId }, 'unsubscribe', ['many-unsub@example.org']);
    await check.recordFailure(b.accountId, 'many-ghost@example.org', notExist(clock));
    const verdicts = await check.checkMany(a.accountId, [
      { recipient: 'many-free@example.org', context: batch(a) },
      { recipient: 'Many-Blocked@example.org', context: batch(a) },
      { recipient: 'many-unsub@example.org', context: batch(a) },
      { recipient: 'many-unsub@example.org', context: trigger(a) },
      { recipient: 'many-ghost@example.org', context: batch(a) },
      { recipient: 'many-blocked@example.org', context: trigger(a) },
    ]);
    assert.deepEqual(
      verdicts.map((v) => v?.list ?? null),
      [null, 'user_defined', 'unsubscribe', null, 'global_invalid', 'user_defined'],
    );
    assert.equal(verdicts[2]?.subStatus, 402);
    // Another account's lists stay its own; the global list is everyone's.
    const other = await check.checkMany(b.accountId, [
      { recipient: 'many-blocked@example.org', context: batch(b) },
      { recipient: 'many-ghost@example.org', context: batch(b) },
    ]);
    assert.deepEqual(
      other.map((v) => v?.list ?? null),
      [null, 'global_invalid'],
    );
  });

  it('adds nothing for failures that say nothing about the address', async () => {
    for (const category of ['server_unreachable', 'rejected', 'ip_domain_rejected', 'other'] as const) {
      await check.recordFailure(a.accountId, `${category}@example.org`, {
        category,
        kind: 'soft_bounce',
        detail: 'x',
        at: clock,
      });
      assert.equal(await check.check(a.accountId, `${category}@example.org`, batch(a)), null, category);
    }
  });
});
