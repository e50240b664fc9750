/**
 * Queue throughput: enqueue N jobs (bulk, 1,000 at a time) and process them all with no-op
 * handlers, on each backend that is reachable: the database queue on SQLite (always), on
 * PostgreSQL (BENCH_DATABASE_URL) and BullMQ on Redis (BENCH_REDIS_URL, default local Redis).
 *
 *   npm run bench -- queue-throughput        BENCH_JOBS (default 100000), BENCH_CONCURRENCY (default 50)
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { type Database, openDatabase } from '../server/src/db/database.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { DatabaseQueue } from '../server/src/queue/database/database-queue.ts';
import type { QueueBackend } from '../server/src/queue/queue.ts';
import { RedisQueue } from '../server/src/queue/redis/redis-queue.ts';
import { report, round } from './report.ts';

const JOBS = Number(process.env.BENCH_JOBS ?? 100_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const CHUNK = 1000;

interface Target {
  backend: string;
  queue: QueueBackend;
  cleanup(): Promise<void>;
}

async function measure({ backend, queue, cleanup }: Target): Promise<number> {
  const name = 'bench';
  const enqueueStart = performance.now();
  for (let start = 0; start < JOBS; start += CHUNK) {
    const size = Math.min(CHUNK, JOBS - start);
    await queue.enqueueBulk(
      name,
      Array.from({ length: size }, (_, i) => ({ name: 'noop', payload: { i: start + i } })),
    );
  }
  const enqueueSeconds = (performance.now() - enqueueStart) / 1000;

  let completed = 0;
  let resolveDone: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });
  queue.onEvent((event) => {
    if (event.type === 'completed' && ++completed === JOBS) resolveDone();
  });
  const processStart = performance.now();
  const worker = queue.work(name, async () => {}, { concurrency: CONCURRENCY });
  await done;
  const processSeconds = (performance.now() - processStart) / 1000;
  await worker.close();
  await queue.close();
  await cleanup();

  const processPerSecond = JOBS / processSeconds;
  report({
    bench: 'queue-throughput',
    backend,
    jobs: JOBS,
    concurrency: CONCURRENCY,
    enqueue_s: round(enqueueSeconds, 2),
    enqueue_per_s: Math.round(JOBS / enqueueSeconds),
    process_s: round(processSeconds, 2),
    process_per_s: Math.round(processPerSecond),
    total_s: round(enqueueSeconds + processSeconds, 2),
  });
  return processPerSecond;
}

async function databaseTarget(
  backend: string,
  database: Database,
  cleanup: () => Promise<void>,
): Promise<Target> {
  await migrateToLatest(database);
  return {
    backend,
    queue: new DatabaseQueue(database),
    async cleanup() {
      await database.close();
      await cleanup();
    },
  };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-'));
await measure(
  await databaseTarget(
    'database (sqlite)',
    openDatabase({ kind: 'sqlite', file: path.join(dir, 'bench.db') }),
    async () => fs.rmSync(dir, { recursive: true, force: true }),
  ),
);

if (process.env.BENCH_DATABASE_URL) {
  const database = openDatabase({ kind: 'postgres', url: process.env.BENCH_DATABASE_URL });
  await measure(
    await databaseTarget('database (postgres)', database, async () => {
      const admin = openDatabase({ kind: 'postgres', url: process.env.BENCH_DATABASE_URL! });
      await admin.db.deleteFrom('jobs').where('queue', '=', 'bench').execute();
      await admin.close();
    }),
  );
}

const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
probe.on('error', () => {});
const reachable = await probe.connect().then(
  () => true,
  () => false,
);
probe.disconnect();
if (reachable) {
  const prefix = `herald-bench-${randomBytes(4).toString('hex')}`;
  await measure({
    backend: 'redis (BullMQ)',
    queue: new RedisQueue({ url: redisUrl, prefix }),
    async cleanup() {
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${prefix}:*`);
      for (let i = 0; i < keys.length; i += 1000) await redis.del(...keys.slice(i, i + 1000));
      redis.disconnect();
    },
  });
} else {
  process.stderr.write(`bench: Redis at ${redisUrl} is not reachable; BullMQ skipped\n`);
}
