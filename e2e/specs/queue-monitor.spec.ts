import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  createQueueMonitor,
  type MonitorClock,
} from '../../console/src/pages/send-relative/queue-monitor.ts';
import type { QueueSample } from '../../console/src/stores/queue-status-merge.ts';

/** The queue monitor's polling (console-spec §4, §8) with a hand-driven clock, in Node. */
function manualClock() {
  let pending: { fn: () => void; ms: number } | null = null;
  let n = 0;
  const clock: MonitorClock = {
    setTimeout: (fn, ms) => {
      pending = { fn, ms };
      return pending;
    },
    clearTimeout: () => {
      pending = null;
    },
    label: () => `t${n++}`,
  };
  return {
    clock,
    get pending() {
      return pending;
    },
    async fire() {
      const p = pending;
      assert.ok(p, 'a poll is scheduled');
      pending = null;
      p.fn();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

const sample = (apiUserName: string, n: number): QueueSample => ({
  apiUserName,
  domain: 'mail.example.com',
  categoryId: 1,
  in: n,
  process: 0,
  out: 0,
});

describe('queue monitor polling', () => {
  test('first load replaces, polls every 5000 ms merge, at most 10 points', async () => {
    const timer = manualClock();
    let answer = [sample('a', 1)];
    let calls = 0;
    const m = createQueueMonitor(
      {
        fetch: async () => {
          calls++;
          return answer;
        },
        onRows: () => {},
        onError: () => assert.fail('no error'),
      },
      timer.clock,
    );
    await m.start();
    assert.equal(calls, 1);
    assert.equal(m.rows[0]?.chart.length, 1);
    assert.equal(timer.pending?.ms, 5000);
    for (let i = 2; i <= 12; i++) {
      answer = [sample('a', i)];
      await timer.fire();
    }
    assert.equal(calls, 12);
    assert.equal(m.rows[0]?.chart.length, 10);
    assert.equal(m.rows[0]?.chart.at(-1)?.in, 12);
    m.stop();
    assert.equal(timer.pending, null, 'closing the page stops polling');
  });

  test('skips a poll while a chart loads; stops when the list is empty', async () => {
    const timer = manualClock();
    let answer = [sample('a', 1)];
    let calls = 0;
    const m = createQueueMonitor(
      {
        fetch: async () => {
          calls++;
          return answer;
        },
        onRows: () => {},
        onError: () => {},
      },
      timer.clock,
    );
    await m.start();
    m.setChartLoading(true);
    await timer.fire();
    assert.equal(calls, 1, 'skipped while the chart loads');
    assert.ok(timer.pending, 'but polling goes on');
    m.setChartLoading(false);
    answer = [];
    await timer.fire();
    assert.equal(calls, 2);
    assert.equal(m.rows.length, 0);
    assert.equal(timer.pending, null, 'an empty list stops polling');
    answer = [sample('b', 1)];
    await m.refresh();
    assert.ok(timer.pending, 'a refresh that finds queues polls again');
  });

  test('a failed call shows the error and empties the list', async () => {
    const timer = manualClock();
    let fail = false;
    const errors: string[] = [];
    let shown: readonly unknown[] = [];
    const m = createQueueMonitor(
      {
        fetch: async () => {
          if (fail) throw new Error('The queue is unavailable');
          return [sample('a', 1)];
        },
        onRows: (rows) => {
          shown = rows;
        },
        onError: (message) => errors.push(message),
      },
      timer.clock,
    );
    await m.start();
    assert.equal(shown.length, 1);
    fail = true;
    await timer.fire();
    assert.deepEqual(errors, ['The queue is unavailable']);
    assert.equal(shown.length, 0);
    assert.equal(timer.pending, null);
  });
});
