import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { tempDir } from '../helpers/database.ts';
import { type QueueTarget, queueTargets } from '../helpers/queues.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * A worker process is killed with SIGKILL in the middle of 10,000 jobs and started again. The
 * jobs it held come back when their leases expire; in the end every job has run and completed,
 * and no job was completed twice.
 */
const JOBS = 10_000;
const CONCURRENCY = 8;
const LEASE_MS = 1500;
const fixture = path.join(import.meta.dirname, '../fixtures/queue-worker.ts');

for (const factory of queueTargets()) {
  describe(`crash recovery: ${factory.name}`, () => {
    const children: ChildProcess[] = [];
    let target: QueueTarget | undefined;
    after(async () => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      await target?.cleanup();
    });

    it(`completes all ${JOBS} jobs once after a worker is SIGKILLed mid-run`, async () => {
      target = await factory.create();
      const producer = target.open();
      const queueName = 'crash';
      const log = path.join(tempDir(), 'worker.log');
      fs.writeFileSync(log, '');
      const lines = () => fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
      const count = (prefix: string) => lines().filter((line) => line.startsWith(prefix)).length;

      const enqueued = await producer.enqueueBulk(
        queueName,
        Array.from({ length: JOBS }, (_, i) => ({ name: 'crash-test', payload: { i } })),
      );
      const ids = new Set(enqueued.map((r) => r.id));
      assert.equal(ids.size, JOBS);

      const start = () => {
        const child = spawn(process.execPath, [fixture], {
          env: {
            ...process.env,
            ...target!.env,
            CRASH_LOG: log,
            CRASH_QUEUE: queueName,
            CRASH_CONCURRENCY: String(CONCURRENCY),
            HERALD_QUEUE_LEASE_MS: String(LEASE_MS),
          },
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        children.push(child);
        return child;
      };

      const first = start();
      await waitFor('a quarter of the jobs', () => count('done ') >= JOBS / 4, { timeoutMs: 120_000 });
      first.kill('SIGKILL');
      await new Promise((resolve) => first.once('exit', resolve));
      const doneAtKill = count('done ');
      assert.ok(doneAtKill < JOBS, 'the kill came mid-run');

      const second = start();
      await waitFor(
        'every job to complete',
        async () => (await producer.counts(queueName)).completed === JOBS,
        { timeoutMs: 180_000, intervalMs: 250 },
      );
      second.kill('SIGTERM');
      const exitCode = await new Promise((resolve) => second.once('exit', resolve));
      assert.equal(exitCode, 0, 'the restarted worker shuts down cleanly');

      const counts = await producer.counts(queueName);
      await producer.close();
      assert.deepEqual(counts, { waiting: 0, delayed: 0, active: 0, completed: JOBS, dead: 0 });

      const done = lines()
        .filter((line) => line.startsWith('done '))
        .map((line) => line.slice(5));
      assert.equal(new Set(done).size, done.length, 'no job was completed twice');
      const ran = new Map<string, number>();
      for (const line of lines().filter((l) => l.startsWith('run '))) {
        const id = line.slice(4);
        ran.set(id, (ran.get(id) ?? 0) + 1);
      }
      assert.deepEqual(
        [...ids].filter((id) => !ran.has(id)),
        [],
        'every job ran',
      );
      const reruns = [...ran.values()].filter((n) => n > 1).length;
      assert.ok(reruns <= CONCURRENCY, `only jobs in flight at the kill ran again (${reruns})`);
    });
  });
}
