import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addDays, REPUTATION_DEFAULT_SCORE, statDay, zeroCounters } from '@herald/shared';
import { reputationScore } from '../../src/core/statistics/reputation.ts';
import { StatisticsService } from '../../src/core/statistics/statistics.service.ts';
import { recordReputation } from '../../src/worker/tasks/reputation.task.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createQueueAccount, type QueueAccount } from '../queues/queue-fixtures.ts';

const figures = (c: Partial<ReturnType<typeof zeroCounters>>) => ({ ...zeroCounters(), ...c });

describe('reputation score', () => {
  it('starts at the default when nothing was sent', () => {
    assert.equal(reputationScore(zeroCounters()), REPUTATION_DEFAULT_SCORE);
    assert.equal(REPUTATION_DEFAULT_SCORE, 80);
  });

  it('a clean sender scores 90; engagement lifts it to 100', () => {
    assert.equal(reputationScore(figures({ requested: 1000, delivered: 1000 })), 90);
    assert.equal(
      reputationScore(figures({ requested: 1000, delivered: 1000, uniqueOpened: 400, uniqueClicked: 50 })),
      100,
    );
  });

  it('falls with invalid addresses, spam reports and unsubscribes', () => {
    // 10% invalid: 90 − 20.
    assert.equal(reputationScore(figures({ requested: 1000, delivered: 900, invalid: 100 })), 70);
    // 1% spam reports of delivered: 90 − 20.
    assert.equal(reputationScore(figures({ requested: 1000, delivered: 1000, spamReported: 10 })), 70);
    // 5% unsubscribes: 90 − 10 (capped).
    assert.equal(reputationScore(figures({ requested: 1000, delivered: 1000, unsubscribed: 50 })), 80);
    // Everything at once reaches 0, never below.
    assert.equal(
      reputationScore(
        figures({ requested: 1000, delivered: 100, invalid: 900, spamReported: 50, unsubscribed: 50 }),
      ),
      0,
    );
    assert.ok(
      reputationScore(figures({ requested: 1000, delivered: 900, invalid: 100 })) <
        reputationScore(figures({ requested: 1000, delivered: 950, invalid: 50 })),
    );
  });

  it('weighs small volumes toward the default', () => {
    // 3 mails, one invalid (33% invalid, the −50 cap → raw 40): only 3% of the way from 80.
    assert.equal(reputationScore(figures({ requested: 3, delivered: 2, invalid: 1 })), 79);
    assert.equal(reputationScore(figures({ requested: 50, delivered: 50 })), 85);
  });
});

describe('reputation history', () => {
  let t: TestApp;
  let a: QueueAccount;
  before(async () => {
    t = await buildTestApp();
    a = await createQueueAccount(t, 'reputation_a');
  });
  after(() => t.close());

  it("records each account's score of yesterday, from the rollups of the 7 days ending then", async () => {
    const now = Date.parse('2025-03-10T04:00:00Z');
    const stats = new StatisticsService(t.core.database, t.core.mailEvents, () => now);
    const yesterday = addDays(statDay(now), -1);
    const row = (day: string, c: Partial<ReturnType<typeof zeroCounters>>) => ({
      account_id: a.accountId,
      day,
      ...{
        requested: 0,
        delivered: 0,
        opened: 0,
        clicked: 0,
        unique_opened: 0,
        unique_clicked: 0,
        soft_bounced: 0,
        invalid: 0,
        spam_reported: 0,
        unsubscribed: 0,
      },
      ...c,
    });
    await t.core.database.db
      .insertInto('stat_account_days')
      .values([
        row(addDays(yesterday, -7), { requested: 5000, invalid: 5000 }),
        row(addDays(yesterday, -3), { requested: 600, delivered: 500, invalid: 100 }),
        row(yesterday, { requested: 400, delivered: 400, opened: 30, clicked: 4 }),
      ])
      .execute();

    const current = await stats.reputation({ accountId: a.accountId });
    // The 8th day back is outside the window: 1000 requested, 10% invalid → 70.
    assert.deepEqual(current, {
      score: 70,
      yesterday: { delivered: 400, opened: 30, clicked: 4, invalid: 0, spamReported: 0 },
    });

    await stats.recordReputation();
    await stats.recordReputation();
    const history = await t.core.database.db
      .selectFrom('reputation_history')
      .selectAll()
      .where('account_id', '=', a.accountId)
      .execute();
    assert.equal(history.length, 1, 'one row per account and day, however often it runs');
    assert.equal(history[0]?.day, yesterday);
    assert.equal(Number(history[0]?.score), 70);
    assert.equal(Number(history[0]?.delivered), 400);

    const detail = await stats.reputationDetail(
      { accountId: a.accountId },
      stats.parseQuery({ preset: 'last30' }),
    );
    assert.deepEqual(
      detail.history.map((h) => [h.day, h.score]),
      [[yesterday, 70]],
    );
  });

  it('the worker task records every customer account, a silent one at the default', async () => {
    const silent = await createQueueAccount(t, 'reputation_silent');
    await recordReputation.handle(t.core, undefined, new AbortController().signal);
    const row = await t.core.database.db
      .selectFrom('reputation_history')
      .selectAll()
      .where('account_id', '=', silent.accountId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(row.score), REPUTATION_DEFAULT_SCORE);
    assert.equal(row.day, addDays(statDay(Date.now()), -1));
  });
});
