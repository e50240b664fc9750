import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChannelPipeline, ChannelStore } from '../../src/channel/contract.ts';
import { runSteps, type Step } from '../../src/channel/steps.ts';
import { type LoopSettings, WorkLoop } from '../../src/channel/work-loop.ts';
import { createLogger } from '../../src/logger.ts';

const logger = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', roles: ['worker'] });

interface Item {
  id: number;
  to: string;
}

interface Outcome {
  id: number;
  owner: string;
  step: string;
  status: 'delivered' | 'invalid';
}

interface Row extends Item {
  status: 'queued' | 'delivered' | 'invalid';
  owner: string | null;
  leaseUntil: number;
}

/**
 * An in-memory work table that keeps the ChannelStore contract: claims lease due rows to one
 * owner, outcomes are written only while the owner holds the row, release hands rows back.
 */
class MemoryStore implements ChannelStore<Item, Outcome> {
  readonly rows = new Map<number, Row>();
  readonly claimed: number[] = [];
  readonly written: Outcome[] = [];
  released = 0;

  constructor(items: Item[]) {
    for (const item of items) {
      this.rows.set(item.id, { ...item, status: 'queued', owner: null, leaseUntil: 0 });
    }
  }

  async claim(owner: string, limit: number, now: number, leaseMs: number): Promise<Item[]> {
    const due = [...this.rows.values()]
      .filter((r) => r.status === 'queued' && (r.owner === null || r.leaseUntil <= now))
      .slice(0, limit);
    for (const row of due) {
      row.owner = owner;
      row.leaseUntil = now + leaseMs;
      this.claimed.push(row.id);
    }
    return due.map((r) => ({ id: r.id, to: r.to }));
  }

  async renew(owner: string, ids: number[], now: number, leaseMs: number): Promise<number> {
    let count = 0;
    for (const id of ids) {
      const row = this.rows.get(id);
      if (row?.owner === owner && row.status === 'queued') {
        row.leaseUntil = now + leaseMs;
        count += 1;
      }
    }
    return count;
  }

  async releaseIds(owner: string, ids: number[]): Promise<void> {
    for (const id of ids) {
      const row = this.rows.get(id);
      if (row?.owner === owner && row.status === 'queued') row.owner = null;
    }
  }

  async release(owner: string): Promise<void> {
    this.released += 1;
    for (const row of this.rows.values()) {
      if (row.owner === owner && row.status === 'queued') row.owner = null;
    }
  }

  async writeOutcomes(records: Outcome[]): Promise<boolean[]> {
    return records.map((record) => {
      const row = this.rows.get(record.id);
      if (!row || row.owner !== record.owner || row.status !== 'queued') return false;
      row.status = record.status;
      row.owner = null;
      this.written.push(record);
      return true;
    });
  }

  async close(): Promise<void> {}
}

/** A channel's pipeline in miniature: two named steps, outcomes handed to the store. */
class TestPipeline implements ChannelPipeline<Item> {
  readonly processed: number[] = [];
  readonly prepared: number[][] = [];
  inflight = 0;
  maxInflight = 0;
  failPrepareOnce = false;
  private readonly pending = new Set<Promise<unknown>>();
  private readonly steps: Step<Item, 'delivered' | 'invalid'>[] = [
    { name: 'validate', run: (item) => (item.to.includes('@') ? undefined : 'invalid') },
    { name: 'send', run: async () => 'delivered' as const },
  ];

  private readonly store: MemoryStore;
  private readonly delayMs: number;

  constructor(store: MemoryStore, delayMs: number) {
    this.store = store;
    this.delayMs = delayMs;
  }

  async prepare(batch: Item[]): Promise<void> {
    if (this.failPrepareOnce) {
      this.failPrepareOnce = false;
      throw new Error('bodies could not be loaded');
    }
    this.prepared.push(batch.map((i) => i.id));
  }

  async process(item: Item, owner: string): Promise<void> {
    this.inflight += 1;
    this.maxInflight = Math.max(this.maxInflight, this.inflight);
    this.processed.push(item.id);
    await new Promise((r) => setTimeout(r, this.delayMs));
    const { step, outcome } = await runSteps(this.steps, item);
    this.inflight -= 1;
    const write = this.store.writeOutcomes([{ id: item.id, owner, step, status: outcome }]);
    this.pending.add(write);
    await write;
    this.pending.delete(write);
  }

  async flush(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}

const settings: LoopSettings = { concurrency: 4, batchSize: 3, pollMs: 20, leaseMs: 5_000 };

function items(count: number): Item[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    to: i % 5 === 4 ? 'not-an-address' : `user${i + 1}@example.com`,
  }));
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('WorkLoop over a ChannelStore', () => {
  it('processes every item once within its concurrency and writes each outcome', async () => {
    const store = new MemoryStore(items(20));
    const pipeline = new TestPipeline(store, 15);
    const loop = new WorkLoop('test', pipeline, store, settings, logger);
    loop.start();
    await until(() => store.written.length === 20);
    await loop.close(1_000);

    assert.deepEqual(
      [...pipeline.processed].sort((a, b) => a - b),
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    assert.equal(new Set(store.claimed).size, store.claimed.length, 'no item claimed twice');
    assert.ok(pipeline.maxInflight <= settings.concurrency, `in flight: ${pipeline.maxInflight}`);
    for (const batch of pipeline.prepared) assert.ok(batch.length <= settings.batchSize);
    for (const row of store.rows.values()) {
      const expected = row.to.includes('@') ? 'delivered' : 'invalid';
      assert.equal(row.status, expected, `item ${row.id}`);
      const outcome = store.written.find((o) => o.id === row.id);
      assert.equal(outcome?.step, expected === 'invalid' ? 'validate' : 'send');
      assert.equal(outcome?.owner, loop.owner);
    }
  });

  it('picks up items added later when woken, and close() returns and hands back', async () => {
    const store = new MemoryStore([]);
    const pipeline = new TestPipeline(store, 1);
    const loop = new WorkLoop('test', pipeline, store, { ...settings, pollMs: 60_000 }, logger);
    loop.start();
    await new Promise((r) => setTimeout(r, 20));
    store.rows.set(1, { id: 1, to: 'a@example.com', status: 'queued', owner: null, leaseUntil: 0 });
    loop.wake();
    await until(() => store.written.length === 1);
    const started = Date.now();
    await loop.close(10_000);
    assert.ok(Date.now() - started < 2_000, 'close did not wait out its poll or its deadline');
    assert.equal(store.released, 1);
    // A second close is a no-op.
    await loop.close(10_000);
    assert.equal(store.released, 1);
  });

  it('hands a batch back when it cannot be prepared, then processes it', async () => {
    const store = new MemoryStore(items(3));
    const pipeline = new TestPipeline(store, 1);
    pipeline.failPrepareOnce = true;
    const loop = new WorkLoop('test', pipeline, store, settings, logger);
    loop.start();
    await until(() => store.written.length === 3);
    await loop.close(1_000);
    assert.deepEqual(store.claimed, [1, 2, 3, 1, 2, 3], 'released at once and claimed again');
    assert.deepEqual(pipeline.processed, [1, 2, 3]);
  });

  it('on close, waits for items in flight and writes their outcomes', async () => {
    const store = new MemoryStore(items(4));
    const pipeline = new TestPipeline(store, 150);
    const loop = new WorkLoop('test', pipeline, store, settings, logger);
    loop.start();
    await until(() => pipeline.processed.length === 4);
    await loop.close(5_000);
    assert.equal(store.written.length, 4);
    assert.ok([...store.rows.values()].every((r) => r.owner === null));
  });
});
