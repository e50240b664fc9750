import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Database } from '../../src/db/database.ts';
import { DatabaseQueue } from '../../src/queue/database/database-queue.ts';
import type { QueueBackend } from '../../src/queue/queue.ts';
import { createTestDatabase, secretKeyEnv, testDialect } from './database.ts';

/**
 * The queue backends a test runs against: the database queue always (on SQLite, or on
 * PostgreSQL when TEST_DATABASE_URL is set), and BullMQ when TEST_REDIS_URL is set.
 * `open()` gives an independent instance with its own connections, as another process would
 * have; `env` configures a child process to use the same backend.
 */
export interface QueueTarget {
  name: string;
  open(options?: { leaseMs?: number }): QueueBackend;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

export interface QueueTargetFactory {
  name: string;
  create(): Promise<QueueTarget>;
}

export const TEST_LEASE_MS = 1500;

export function queueTargets(): QueueTargetFactory[] {
  const targets: QueueTargetFactory[] = [{ name: `database (${testDialect})`, create: databaseTarget }];
  if (process.env.TEST_REDIS_URL) targets.push({ name: 'redis (BullMQ)', create: redisTarget });
  return targets;
}

async function databaseTarget(): Promise<QueueTarget> {
  const testDb = await createTestDatabase();
  const opened: { queue: QueueBackend; database: Database }[] = [];
  // better-sqlite3 is synchronous: two connections in one process would make one busy-wait on
  // the event loop while the other holds the write lock across an await. Real deployments have
  // one connection per process (the crash test uses real processes), so here the instances that
  // stand for other processes share it. PostgreSQL gets a pool per instance.
  const shared = testDialect === 'sqlite' ? testDb.open() : undefined;
  return {
    name: `database (${testDialect})`,
    open(options = {}) {
      const database = shared ?? testDb.open();
      const queue = new DatabaseQueue(database, {
        leaseMs: options.leaseMs ?? TEST_LEASE_MS,
        pollMs: 50,
        schedulerPollMs: 100,
      });
      const close = queue.close.bind(queue);
      queue.close = async (closeOptions) => {
        await close(closeOptions);
        if (!shared) await database.close();
      };
      opened.push({ queue, database });
      return queue;
    },
    env: { DATABASE_URL: testDb.url, ...secretKeyEnv() },
    async cleanup() {
      await Promise.allSettled(opened.map(({ queue }) => queue.close({ timeoutMs: 100 })));
      await shared?.close();
      await testDb.drop();
    },
  };
}

async function redisTarget(): Promise<QueueTarget> {
  const url = process.env.TEST_REDIS_URL!;
  const { RedisQueue } = await import('../../src/queue/redis/redis-queue.ts');
  const prefix = `herald-test-${randomBytes(4).toString('hex')}`;
  const opened: QueueBackend[] = [];
  return {
    name: 'redis (BullMQ)',
    open(options = {}) {
      const queue = new RedisQueue({ url, prefix, leaseMs: options.leaseMs ?? TEST_LEASE_MS });
      opened.push(queue);
      return queue;
    },
    env: { REDIS_URL: url, HERALD_QUEUE_PREFIX: prefix },
    async cleanup() {
      await Promise.allSettled(opened.map((queue) => queue.close({ timeoutMs: 100 })));
      const redis = new Redis(url);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    },
  };
}
