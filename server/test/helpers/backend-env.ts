import { randomBytes } from 'node:crypto';
import { createTestDatabase, secretKeyEnv, type TestDatabase } from './database.ts';

/**
 * Environment for Herald child processes that must share one backend: a fresh test database
 * (a SQLite file, or PostgreSQL under TEST_DATABASE_URL) and, under TEST_REDIS_URL, Redis with
 * a key prefix of its own.
 */
export async function sharedBackendEnv(): Promise<{ env: Record<string, string>; database: TestDatabase }> {
  const database = await createTestDatabase();
  const env: Record<string, string> = { DATABASE_URL: database.url, ...secretKeyEnv() };
  if (process.env.TEST_REDIS_URL) {
    env.REDIS_URL = process.env.TEST_REDIS_URL;
    env.HERALD_QUEUE_PREFIX = `herald-test-${randomBytes(4).toString('hex')}`;
  }
  return { env, database };
}
