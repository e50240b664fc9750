import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CopyBudget, type CopyLease } from '../../src/mta/pipeline/copy-budget.ts';

const MB = 1024 * 1024;

/** Resolves to the lease, or to 'waiting' when it is not granted by the end of this turn. */
async function granted(pending: Promise<CopyLease>): Promise<CopyLease | 'waiting'> {
  return Promise.race([pending, new Promise<'waiting'>((r) => setImmediate(() => r('waiting')))]);
}

describe('the copy budget', () => {
  it('lets copies in while they fit, and a waiting one in when an earlier one is released', async () => {
    const budget = new CopyBudget(10 * MB);
    const first = await budget.acquire(1, 6 * MB);
    const second = budget.acquire(2, 6 * MB);
    assert.equal(await granted(second), 'waiting');
    assert.equal(budget.inFlight, 6 * MB);
    first.release();
    const lease = await granted(second);
    assert.notEqual(lease, 'waiting');
    assert.equal(budget.inFlight, 6 * MB);
    (lease as CopyLease).release();
    assert.equal(budget.inFlight, 0);
  });

  it('counts the stored message the copies slice once, however many copies are in flight', async () => {
    const budget = new CopyBudget(20 * MB);
    const copies = await Promise.all(Array.from({ length: 40 }, () => budget.acquire(7, 100_000, 16 * MB)));
    assert.equal(budget.inFlight, 16 * MB + 40 * 100_000);
    assert.equal(budget.waiting, 0);
    // Another message's stored copy does not fit beside it.
    const other = budget.acquire(8, 100_000, 16 * MB);
    assert.equal(await granted(other), 'waiting');
    for (const copy of copies.slice(1)) copy.release();
    assert.equal(await granted(other), 'waiting', 'the first message is still held by one copy');
    copies[0]?.release();
    assert.notEqual(await granted(other), 'waiting');
    assert.equal(budget.inFlight, 16 * MB + 100_000);
  });

  it('lets a copy larger than the whole budget go alone, and the next ones wait for it', async () => {
    const budget = new CopyBudget(1 * MB);
    const small = await budget.acquire(1, 100_000);
    const huge = budget.acquire(2, 50 * MB);
    const after = budget.acquire(3, 100_000);
    assert.equal(await granted(huge), 'waiting', 'not beside another copy');
    assert.equal(await granted(after), 'waiting', 'in order: not past the one waiting first');
    small.release();
    const alone = await granted(huge);
    assert.notEqual(alone, 'waiting');
    assert.equal(await granted(after), 'waiting');
    (alone as CopyLease).release();
    assert.notEqual(await granted(after), 'waiting');
  });

  it('settles an estimate to the real size, letting waiters in when the copy came out smaller', async () => {
    const budget = new CopyBudget(10 * MB);
    const estimated = await budget.acquire(1, 8 * MB);
    const next = budget.acquire(2, 4 * MB);
    assert.equal(await granted(next), 'waiting');
    estimated.settle(1 * MB);
    assert.notEqual(await granted(next), 'waiting');
    assert.equal(budget.inFlight, 5 * MB);
    estimated.release();
    estimated.release();
    assert.equal(budget.inFlight, 4 * MB, 'a second release changes nothing');
  });
});
