import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import { loadConfig } from '../../src/config.ts';
import { NodesService } from '../../src/core/nodes/nodes.service.ts';
import { openDatabase } from '../../src/db/database.ts';
import { createQueueBackend } from '../../src/queue/create-queue.ts';
import { QUEUES } from '../../src/queue/names.ts';
import { sharedBackendEnv } from '../helpers/backend-env.ts';
import type { TestDatabase } from '../helpers/database.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * A deployment split by role: one api process and two worker processes on one database and one
 * queue (PostgreSQL + Redis in CI's second pass; a shared SQLite file otherwise).
 */
describe('api + 2 workers as separate processes', () => {
  const processes: Herald[] = [];
  let database: TestDatabase | undefined;
  after(async () => {
    await Promise.allSettled(processes.map((p) => p.stop()));
    await database?.drop();
  });

  it('serve, share the work, and stop cleanly', async () => {
    const backend = await sharedBackendEnv();
    database = backend.database;
    const api = await startHerald({ env: backend.env, args: ['--role=api'] });
    processes.push(api);
    for (let i = 0; i < 2; i++) {
      const worker = await startHerald({
        env: { ...backend.env, HERALD_WORKER_CONCURRENCY: '2' },
        args: ['--role=worker'],
      });
      await worker.waitForLog((line) => line.json?.msg === 'workers started');
      processes.push(worker);
    }

    for (const p of processes) {
      assert.equal((await fetch(`${p.url}/readyz`)).status, 200);
    }
    assert.deepEqual(Object.keys(api.listeners), ['http'], 'the api role opens no SMTP listener');
    const apiPage = await fetch(`${api.url}/v3/api/unknown`);
    assert.equal(apiPage.status, 404);
    const workerPage = await fetch(`${processes[1]!.url}/`, { headers: { accept: 'text/html' } });
    assert.equal(workerPage.status, 404, 'a worker serves no console');

    const config = loadConfig({ ...backend.env, HERALD_DATA_DIR: api.dataDir }, []);
    const db = openDatabase(config.database);
    const nodes = new NodesService(db);
    const running = (await nodes.list()).filter((n) => n.state === 'running');
    assert.deepEqual(running.map((n) => n.roles.join(',')).sort(), ['api', 'worker', 'worker']);

    const queue = await createQueueBackend(config, db);
    await queue.enqueueBulk(
      QUEUES.system,
      Array.from({ length: 40 }, () => ({ name: 'system.forget-nodes', payload: null })),
    );
    await waitFor(
      'the workers to do the jobs',
      async () => (await queue.counts(QUEUES.system)).completed >= 40,
      {
        timeoutMs: 30_000,
        intervalMs: 100,
      },
    );

    await Promise.all(processes.map((p) => p.stop()));
    const stopped = await nodes.list();
    assert.equal(stopped.filter((n) => n.state === 'stopped').length, 3);
    await queue.close();
    await db.close();
  });
});

/**
 * `npm start`'s layout on a multi-core machine (--worker-process): one process serving HTTP and
 * SMTP, and the delivery worker forked beside it on the same database; stopping the first stops
 * both, and the worker leaves by itself when its parent is killed.
 */
describe('--worker-process: the worker forked beside the serving process', () => {
  let database: TestDatabase | undefined;
  after(async () => {
    await database?.drop();
  });

  it('runs api+smtp here and the worker in a child, and the child goes when the parent does', async () => {
    const backend = await sharedBackendEnv();
    database = backend.database;
    const herald = await startHerald({ env: backend.env, args: ['--worker-process=on'] });
    try {
      await herald.waitForLog((line) => line.json?.msg === 'workers started');
      const config = loadConfig({ ...backend.env, HERALD_DATA_DIR: herald.dataDir }, []);
      const db = openDatabase(config.database);
      const nodes = new NodesService(db);
      const running = (await nodes.list()).filter((n) => n.state === 'running');
      assert.deepEqual(running.map((n) => n.roles.join(',')).sort(), ['api,smtp,gateway', 'worker']);
      const workerPid = running.find((n) => n.roles.join(',') === 'worker')?.pid;
      assert.ok(workerPid, 'the worker records its pid');

      await herald.kill();
      await waitFor(
        'the orphaned worker to exit',
        async () => {
          try {
            process.kill(Number(workerPid), 0);
            return false;
          } catch {
            return true;
          }
        },
        { timeoutMs: 15_000, intervalMs: 100 },
      );
      await db.close();
    } finally {
      await herald.kill().catch(() => {});
    }
  });
});
