import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PermanentJobError, type QueueBackend, type QueueEvent } from '../../src/queue/queue.ts';
import { type QueueTarget, queueTargets } from '../helpers/queues.ts';
import { sleep, waitFor } from '../helpers/wait.ts';

/**
 * The behaviour every queue backend promises (see src/queue/queue.ts). The same cases run
 * against the database queue and, when TEST_REDIS_URL is set, BullMQ.
 */
for (const factory of queueTargets()) {
  describe(`queue contract: ${factory.name}`, () => {
    let target: QueueTarget;
    let queue: QueueBackend;
    let n = 0;
    const fresh = () => `q${++n}`;

    before(async () => {
      target = await factory.create();
      queue = target.open();
    });
    after(async () => {
      await queue.close({ timeoutMs: 500 });
      await target.cleanup();
    });

    it('runs an enqueued job with its name and payload, once', async () => {
      const q = fresh();
      const seen: unknown[] = [];
      const worker = queue.work(q, async (job) => {
        seen.push({ name: job.name, payload: job.payload, attempt: job.attempt });
      });
      const { id, deduplicated } = await queue.enqueue(q, 'greet', { to: 'ada@example.com', n: 1 });
      assert.ok(id);
      assert.equal(deduplicated, false);
      await waitFor('the job to complete', async () => (await queue.counts(q)).completed === 1);
      await worker.close();
      assert.deepEqual(seen, [{ name: 'greet', payload: { to: 'ada@example.com', n: 1 }, attempt: 1 }]);
      assert.deepEqual(await queue.counts(q), { waiting: 0, delayed: 0, active: 0, completed: 1, dead: 0 });
    });

    it('runs lower priority numbers first, then in enqueue order', async () => {
      const q = fresh();
      await queue.pause(q);
      await queue.enqueue(q, 'a', 1, { priority: 50 });
      await queue.enqueue(q, 'b', 2, { priority: 10 });
      await queue.enqueue(q, 'c', 3, { priority: 50 });
      await queue.enqueue(q, 'd', 4, { priority: 1 });
      const order: string[] = [];
      const worker = queue.work(q, async (job) => {
        order.push(job.name);
      });
      await sleep(200);
      assert.deepEqual(order, [], 'a paused queue runs nothing');
      assert.equal(await queue.isPaused(q), true);
      await queue.resume(q);
      await waitFor('four jobs', () => order.length === 4);
      await worker.close();
      assert.deepEqual(order, ['d', 'b', 'a', 'c']);
    });

    it('holds a delayed job until its time and counts it as delayed meanwhile', async () => {
      const q = fresh();
      let ranAt = 0;
      const worker = queue.work(q, async () => {
        ranAt = Date.now();
      });
      const enqueuedAt = Date.now();
      await queue.enqueue(q, 'later', null, { delayMs: 800 });
      assert.equal((await queue.counts(q)).delayed, 1);
      await waitFor('the delayed job', () => ranAt > 0, { timeoutMs: 5000 });
      await worker.close();
      assert.ok(ranAt - enqueuedAt >= 750, `ran after ${ranAt - enqueuedAt} ms`);
    });

    it('suppresses a duplicate while the first job is pending, not after it finished', async () => {
      const q = fresh();
      const first = await queue.enqueue(q, 'check-domain', { id: 7 }, { dedupeKey: 'domain:7' });
      const second = await queue.enqueue(q, 'check-domain', { id: 7 }, { dedupeKey: 'domain:7' });
      assert.equal(second.id, first.id);
      assert.equal(second.deduplicated, true);
      assert.equal((await queue.counts(q)).waiting, 1);
      const worker = queue.work(q, async () => {});
      await waitFor('the first job', async () => (await queue.counts(q)).completed === 1);
      const third = await queue.enqueue(q, 'check-domain', { id: 7 }, { dedupeKey: 'domain:7' });
      assert.equal(third.deduplicated, false);
      assert.notEqual(third.id, first.id);
      await waitFor('the third job', async () => (await queue.counts(q)).completed === 2);
      await worker.close();
    });

    it('retries a failing job with exponential backoff', async () => {
      const q = fresh();
      const attempts: { attempt: number; at: number }[] = [];
      const events: QueueEvent[] = [];
      queue.onEvent((event) => {
        if (event.queue === q) events.push(event);
      });
      const worker = queue.work(q, async (job) => {
        attempts.push({ attempt: job.attempt, at: Date.now() });
        if (job.attempt < 3) throw new Error(`remote said 451 (try ${job.attempt})`);
      });
      await queue.enqueue(q, 'flaky', null, { maxAttempts: 5, backoffMs: 200 });
      await waitFor('the third attempt to succeed', async () => (await queue.counts(q)).completed === 1, {
        timeoutMs: 8000,
      });
      await worker.close();
      assert.deepEqual(
        attempts.map((a) => a.attempt),
        [1, 2, 3],
      );
      const gap1 = attempts[1]!.at - attempts[0]!.at;
      const gap2 = attempts[2]!.at - attempts[1]!.at;
      assert.ok(gap1 >= 180, `first backoff ${gap1} ms`);
      assert.ok(gap2 >= 380, `second backoff ${gap2} ms should double`);
      assert.deepEqual(
        events.map((e) => e.type),
        ['retrying', 'retrying', 'completed'],
      );
    });

    it('dead-letters after the last attempt, lists it, and can retry it', async () => {
      const q = fresh();
      let fail = true;
      const worker = queue.work(q, async () => {
        if (fail) throw new Error('550 5.1.1 user unknown');
      });
      const { id } = await queue.enqueue(
        q,
        'doomed',
        { to: 'nobody@example.com' },
        { maxAttempts: 2, backoffMs: 50 },
      );
      await waitFor('the job to die', async () => (await queue.counts(q)).dead === 1, { timeoutMs: 5000 });
      const dead = await queue.deadJobs(q);
      assert.equal(dead.length, 1);
      assert.equal(dead[0]!.id, id);
      assert.equal(dead[0]!.name, 'doomed');
      assert.deepEqual(dead[0]!.payload, { to: 'nobody@example.com' });
      assert.equal(dead[0]!.attempts, 2);
      assert.match(dead[0]!.error ?? '', /550 5\.1\.1/);
      fail = false;
      assert.equal(await queue.retryDead(q, id), true);
      await waitFor('the revived job', async () => (await queue.counts(q)).completed === 1, {
        timeoutMs: 5000,
      });
      assert.equal((await queue.counts(q)).dead, 0);
      await worker.close();
    });

    it('dead-letters at once on a PermanentJobError', async () => {
      const q = fresh();
      let runs = 0;
      const worker = queue.work(q, async () => {
        runs++;
        throw new PermanentJobError('null MX: domain accepts no mail');
      });
      await queue.enqueue(q, 'permanent', null, { maxAttempts: 5, backoffMs: 50 });
      await waitFor('the job to die', async () => (await queue.counts(q)).dead === 1, { timeoutMs: 5000 });
      await sleep(200);
      await worker.close();
      assert.equal(runs, 1);
    });

    it('runs at most `concurrency` jobs at once', async () => {
      const q = fresh();
      let running = 0;
      let peak = 0;
      const worker = queue.work(
        q,
        async () => {
          running++;
          peak = Math.max(peak, running);
          await sleep(40);
          running--;
        },
        { concurrency: 4 },
      );
      await queue.enqueueBulk(
        q,
        Array.from({ length: 24 }, (_, i) => ({ name: 'slow', payload: i })),
      );
      await waitFor('24 jobs', async () => (await queue.counts(q)).completed === 24, { timeoutMs: 10_000 });
      await worker.close();
      assert.equal(peak, 4);
    });

    it('bulk-enqueues in order and hands each job to exactly one of several workers', async () => {
      const q = fresh();
      const other = target.open();
      const runs = new Map<number, number>();
      const handler = async (job: { payload: unknown }) => {
        const i = job.payload as number;
        runs.set(i, (runs.get(i) ?? 0) + 1);
        await sleep(1);
      };
      const results = await queue.enqueueBulk(
        q,
        Array.from({ length: 600 }, (_, i) => ({ name: 'fan-out', payload: i })),
      );
      assert.equal(results.length, 600);
      assert.equal(new Set(results.map((r) => r.id)).size, 600, 'ids are unique');
      const workers = [
        queue.work(q, handler, { concurrency: 4 }),
        other.work(q, handler, { concurrency: 4 }),
        other.work(q, handler, { concurrency: 2 }),
      ];
      await waitFor('600 jobs', async () => (await queue.counts(q)).completed === 600, { timeoutMs: 30_000 });
      await Promise.all(workers.map((w) => w.close()));
      await other.close();
      assert.equal(runs.size, 600);
      assert.deepEqual([...new Set(runs.values())], [1], 'no job ran twice');
    });

    it('lets a running job finish when its worker closes gracefully', async () => {
      const q = fresh();
      let finished = false;
      const worker = queue.work(q, async () => {
        await sleep(300);
        finished = true;
      });
      await queue.enqueue(q, 'long', null);
      await waitFor('the job to start', async () => (await queue.counts(q)).active === 1);
      await worker.close({ timeoutMs: 5000 });
      assert.equal(finished, true);
      assert.equal((await queue.counts(q)).completed, 1);
    });

    it('fires a periodic task once per tick across several processes', async () => {
      const q = fresh();
      const other = target.open();
      const ticks: number[] = [];
      const handler = async () => {
        ticks.push(Date.now());
      };
      const workers = [queue.work(q, handler), other.work(q, handler)];
      await queue.schedule({ id: `${q}-every-second`, cron: '* * * * * *', queue: q, name: 'tick' });
      await other.schedule({ id: `${q}-every-second`, cron: '* * * * * *', queue: q, name: 'tick' });
      await sleep(3600);
      await queue.unschedule(`${q}-every-second`);
      await sleep(300);
      const count = ticks.length;
      await sleep(1200);
      await Promise.all(workers.map((w) => w.close()));
      await other.close();
      assert.ok(count >= 2 && count <= 5, `expected about 3 ticks in 3.6 s, got ${count}`);
      assert.equal(ticks.length, count, 'no tick after unschedule');
    });
  });
}
