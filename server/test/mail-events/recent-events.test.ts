import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecentEvents } from '../../src/core/mail-events/recent-events.ts';

const ids = (list: { id: number }[] | undefined) => list?.map((e) => e.id);
const run = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ({ id: from + i }));

describe('recent events kept for the other consumers', () => {
  it('answers from memory only inside the run it read, and from where the cursor stands', () => {
    const recent = new RecentEvents();
    assert.deepEqual(recent.after(0, 10), [], 'nothing held: the log is read after 0');
    assert.equal(recent.after(5, 10), undefined);
    recent.replace(100, run(101, 105));
    assert.deepEqual(ids(recent.after(100, 10)), [101, 102, 103, 104, 105]);
    assert.deepEqual(ids(recent.after(102, 2)), [103, 104]);
    assert.deepEqual(ids(recent.after(105, 10)), [], 'caught up with what is held');
    assert.equal(recent.after(99, 10), undefined, 'a cursor before the run reads the log');
    assert.equal(recent.after(106, 10), undefined, 'a cursor past the run reads the log');
  });

  it('grows only from its own end, and keeps the newest 20,000', () => {
    const recent = new RecentEvents();
    recent.replace(0, run(1, 3));
    recent.extend(2, run(4, 5));
    assert.equal(recent.top, 3, 'a read after another id does not join the run');
    recent.extend(3, run(4, 5));
    assert.equal(recent.top, 5);
    recent.extend(5, run(6, 20_010));
    assert.equal(recent.after(5, 1), undefined, 'the oldest were let go');
    assert.deepEqual(ids(recent.after(10, 2)), [11, 12]);
    assert.equal(recent.after(9, 1), undefined);
  });

  it('an empty read changes nothing', () => {
    const recent = new RecentEvents();
    recent.replace(7, run(8, 9));
    recent.replace(50, []);
    assert.deepEqual(ids(recent.after(7, 5)), [8, 9]);
  });
});
