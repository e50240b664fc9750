import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { DatabaseQueue } from './database/database-queue.ts';
import type { QueueBackend } from './queue.ts';

/** BullMQ on Redis when REDIS_URL is set; otherwise the queue lives in the application database. */
export async function createQueueBackend(
  config: Pick<Config, 'redisUrl' | 'queuePrefix' | 'queueLeaseMs'>,
  database: Database,
): Promise<QueueBackend> {
  if (config.redisUrl) {
    const { RedisQueue } = await import('./redis/redis-queue.ts');
    return new RedisQueue({ url: config.redisUrl, prefix: config.queuePrefix, leaseMs: config.queueLeaseMs });
  }
  return new DatabaseQueue(database, { leaseMs: config.queueLeaseMs });
}

export function describeQueue(config: Pick<Config, 'redisUrl'>): string {
  if (!config.redisUrl) return 'database';
  const url = new URL(config.redisUrl);
  url.password = '';
  return `redis:${url.host}`;
}
