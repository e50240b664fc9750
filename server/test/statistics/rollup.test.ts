import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DELIVERY_TIME_BUCKETS, statDay, statHour } from '@herald/shared';
import { statisticsLoop } from '../../src/worker/loops/statistics.loop.ts';
import { waitFor } from '../helpers/wait.ts';
import { type PipelineHarness, startPipeline } from '../mta/pipeline-harness.ts';

/**
 * The rollups from a real send flow: mail accepted through core.send, delivered to a loopback MX
 * (one delivered, one refused as unknown, one deferred until it gives up as a soft bounce), plus
 * opens, clicks, an unsubscribe and a spam report appended as the tracking and complaint paths
 * do. After the worker's statistics loop has run, every rollup figure equals the count
 * recomputed here from the raw mail_events rows.
 */
type Raw = {
  account_id: number;
  kind: string;
  at: number;
  api_user_id: number | null;
  label_id: number | null;
  recipient_domain: string;
  sub_status: number | null;
  latency_ms: number | null;
  data: string | null;
};

const FIELD: Record<string, string> = {
  request: 'requested',
  deliver: 'delivered',
  open: 'opened',
  click: 'clicked',
  soft_bounce: 'soft_bounced',
  invalid: 'invalid',
  report_spam: 'spam_reported',
  unsubscribe: 'unsubscribed',
};

/** The rollup's definition, written out plainly: bots count nowhere, `first` makes a unique. */
function recompute(rows: Raw[], keyOf: (r: Raw) => string): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const r of rows) {
    const data = r.data ? (JSON.parse(r.data) as { bot?: boolean; first?: boolean }) : {};
    if ((r.kind === 'open' || r.kind === 'click') && data.bot) continue;
    const key = keyOf(r);
    const figures = out.get(key) ?? {};
    const field = FIELD[r.kind] as string;
    figures[field] = (figures[field] ?? 0) + 1;
    if (r.kind === 'open' && data.first) figures.unique_opened = (figures.unique_opened ?? 0) + 1;
    if (r.kind === 'click' && data.first) figures.unique_clicked = (figures.unique_clicked ?? 0) + 1;
    out.set(key, figures);
  }
  return out;
}

const COUNTERS = [
  'requested',
  'delivered',
  'opened',
  'clicked',
  'unique_opened',
  'unique_clicked',
  'soft_bounced',
  'invalid',
  'spam_reported',
  'unsubscribed',
];

function figuresOf(row: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of COUNTERS) if (Number(row[c]) !== 0) out[c] = Number(row[c]);
  return out;
}

describe('statistics rollups', () => {
  let h: PipelineHarness;
  let good: string;
  let bad: string;
  let slow: string;

  before(async () => {
    h = await startPipeline({ env: { HERALD_DELIVERY_LIFETIME_MS: '1500' } });
    h.mx.script('nobody@dest.test', { rcpt: { code: 550, message: '5.1.1 user unknown' } });
    h.mx.script('slow@dest.test', { rcpt: { code: 451, message: '4.3.0 try again later' } });
    [good, bad, slow] = (await h.send({
      to: 'ann@dest.test;nobody@dest.test;slow@dest.test',
      subject: 'Stats',
      html: '<p>x</p>',
      labelId: String(h.sender.labelId),
    })) as [string, string, string];
    await h.waitForStatus(good, 'delivered');
    await h.waitForStatus(bad, 'invalid');
    await h.waitForStatus(slow, 'soft_bounce', 15_000);
    const ann = Number((await h.recipient(good)).id);
    const now = Date.now();
    await h.t.core.mailEvents.append([
      { recipientId: ann, kind: 'open', at: now, data: { first: true, ip: '203.0.113.9' } },
      { recipientId: ann, kind: 'open', at: now + 1, data: { ip: '203.0.113.9' } },
      { recipientId: ann, kind: 'open', at: now + 2, data: { bot: true } },
      { recipientId: ann, kind: 'click', at: now + 3, data: { first: true, url: 'https://a.test/' } },
      { recipientId: ann, kind: 'click', at: now + 4, data: { url: 'https://a.test/' } },
      { recipientId: ann, kind: 'unsubscribe', at: now + 5 },
      { recipientId: ann, kind: 'report_spam', at: now + 6 },
    ]);
  });
  after(async () => {
    await h?.close();
  });

  async function runLoop(): Promise<void> {
    const loop = statisticsLoop.start(h.t.core);
    try {
      const head = await h.t.core.mailEvents.head();
      await waitFor('the statistics loop to catch up', async () =>
        (await h.t.core.mailEvents.cursor('statistics')) >= head ? true : undefined,
      );
    } finally {
      await loop.close(5000);
    }
  }

  const raw = async () =>
    (await h.t.core.database.db
      .selectFrom('mail_events')
      .select([
        'account_id',
        'kind',
        'at',
        'api_user_id',
        'label_id',
        'recipient_domain',
        'sub_status',
        'latency_ms',
        'data',
      ])
      .execute()) as unknown as Raw[];

  async function assertRollupsMatchRaw(): Promise<void> {
    const events = await raw();
    const db = h.t.core.database.db;
    const hourKey = (r: {
      account_id: unknown;
      day: unknown;
      hour: unknown;
      api_user_id: unknown;
      label_id: unknown;
      recipient_domain: unknown;
    }) => [r.account_id, r.day, r.hour, r.api_user_id, r.label_id, r.recipient_domain].map(String).join('|');
    const expectedHours = recompute(events, (r) =>
      hourKey({
        ...r,
        day: statDay(r.at),
        hour: statHour(r.at),
        api_user_id: r.api_user_id ?? 0,
        label_id: r.label_id ?? 0,
      }),
    );
    const hours = await db.selectFrom('stat_hours').selectAll().execute();
    assert.deepEqual(
      new Map(hours.map((r) => [hourKey(r), figuresOf(r)])),
      expectedHours,
      'stat_hours = raw events per hour × API_USER × label × domain',
    );

    const dayKey = (r: { account_id: unknown; day: unknown }) => `${r.account_id}|${r.day}`;
    const expectedDays = recompute(events, (r) => dayKey({ ...r, day: statDay(r.at) }));
    const accountDays = await db.selectFrom('stat_account_days').selectAll().execute();
    assert.deepEqual(new Map(accountDays.map((r) => [dayKey(r), figuresOf(r)])), expectedDays);

    const domainKey = (r: { account_id: unknown; day: unknown; recipient_domain: unknown }) =>
      `${r.account_id}|${r.day}|${r.recipient_domain}`;
    const expectedDomainDays = recompute(events, (r) => domainKey({ ...r, day: statDay(r.at) }));
    const domainDays = await db.selectFrom('stat_domain_days').selectAll().execute();
    assert.deepEqual(new Map(domainDays.map((r) => [domainKey(r), figuresOf(r)])), expectedDomainDays);

    const days = await db.selectFrom('stat_days').selectAll().execute();
    const invalidByDay = new Map<string, number>();
    for (const d of days) {
      const reasons = Object.entries(d)
        .filter(([k]) => k.startsWith('inv_'))
        .reduce((sum, [, v]) => sum + Number(v), 0);
      assert.equal(reasons, Number(d.invalid), 'every invalid has one reason');
      invalidByDay.set(dayKey(d), (invalidByDay.get(dayKey(d)) ?? 0) + Number(d.invalid));
    }
    for (const [key, figures] of expectedDays) assert.equal(invalidByDay.get(key) ?? 0, figures.invalid ?? 0);

    const expectedBuckets = new Map<string, number>();
    for (const e of events.filter((r) => r.kind === 'deliver')) {
      const bucket = DELIVERY_TIME_BUCKETS.findIndex((b) => Number(e.latency_ms) < b.maxMs);
      const key = `${statDay(e.at)}|${e.recipient_domain}|${bucket}`;
      expectedBuckets.set(key, (expectedBuckets.get(key) ?? 0) + 1);
    }
    const times = await db.selectFrom('stat_delivery_times').selectAll().execute();
    const columns = ['dt_1s', 'dt_5s', 'dt_30s', 'dt_1m', 'dt_5m', 'dt_30m', 'dt_1h', 'dt_over'] as const;
    const gotBuckets = new Map<string, number>();
    for (const row of times) {
      columns.forEach((c, i) => {
        if (Number(row[c]) > 0) gotBuckets.set(`${row.day}|${row.recipient_domain}|${i}`, Number(row[c]));
      });
    }
    assert.deepEqual(gotBuckets, expectedBuckets);
  }

  it('after the loop runs, every rollup equals the counts recomputed from the raw events', async () => {
    await runLoop();
    await assertRollupsMatchRaw();
    const today = statDay(Date.now());
    const [day] = await h.t.core.statistics.daySeries(
      { accountId: h.sender.accountId },
      { from: today, to: today },
    );
    assert.deepEqual(day, {
      day: today,
      requested: 3,
      delivered: 1,
      opened: 2,
      clicked: 2,
      uniqueOpened: 1,
      uniqueClicked: 1,
      softBounced: 1,
      invalid: 1,
      spamReported: 1,
      unsubscribed: 1,
    });
  });

  it('counts a unique open once however often the recipient opens, and keeps adding as events arrive', async () => {
    const ann = Number((await h.recipient(good)).id);
    await h.t.core.mailEvents.append([
      { recipientId: ann, kind: 'open', at: Date.now(), data: {} },
      { recipientId: ann, kind: 'open', at: Date.now(), data: {} },
    ]);
    await runLoop();
    await assertRollupsMatchRaw();
    const today = statDay(Date.now());
    const [day] = await h.t.core.statistics.daySeries(
      { accountId: h.sender.accountId },
      { from: today, to: today },
    );
    assert.equal(day?.opened, 4);
    assert.equal(day?.uniqueOpened, 1);
  });

  it('answers the send series, delivery time and invalid reasons from the rollups', async () => {
    const stats = h.t.core.statistics;
    const q = stats.parseQuery({ preset: 'today' });
    const send = await stats.sendSeries({ accountId: h.sender.accountId }, q);
    assert.equal(send.totals.requested, 3);
    assert.equal(send.totals.deliveredRate, 33.33);
    const byLabel = await stats.sendSeries(
      { accountId: h.sender.accountId },
      { ...q, labelId: h.sender.labelId },
    );
    assert.equal(byLabel.totals.requested, 3);
    const otherLabel = await stats.sendSeries(
      { accountId: h.sender.accountId },
      { ...q, labelId: h.sender.labelId + 999 },
    );
    assert.equal(otherLabel.totals.requested, 0);
    const hourly = await stats.sendSeries({ accountId: h.sender.accountId }, { ...q, groupBy: 'hour' });
    assert.equal(hourly.points.length, 24);
    assert.equal(
      hourly.points.reduce((sum, p) => sum + p.requested, 0),
      3,
    );

    const times = await stats.deliveryTime({ accountId: h.sender.accountId }, q);
    assert.equal(times.totals.total, 1);
    assert.equal(times.byDomain[0]?.domain, 'dest.test');
    assert.equal(
      times.byDomain[0]?.percents.reduce((a, b) => a + b, 0),
      100,
    );

    const reasons = await stats.invalidReasons({ accountId: h.sender.accountId }, q);
    assert.equal(reasons.totals.recipientNotFound, 1);
    const domains = await stats.receiveDomains({ accountId: h.sender.accountId }, q);
    assert.deepEqual(
      domains.rows.map((r) => [r.domain, r.requested, r.delivered, r.invalid, r.share]),
      [['dest.test', 3, 1, 1, 100]],
    );
  });

  it("shows another account nothing of this account's figures", async () => {
    const stats = h.t.core.statistics;
    const q = stats.parseQuery({ preset: 'today' });
    const other = h.sender.accountId + 1000;
    assert.equal((await stats.sendSeries({ accountId: other }, q)).totals.requested, 0);
    assert.deepEqual((await stats.receiveDomains({ accountId: other }, q)).rows, []);
    assert.equal((await stats.deliveryTime({ accountId: other }, q)).totals.total, 0);
  });
});
