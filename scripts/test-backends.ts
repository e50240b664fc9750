/**
 * The second test pass: every server suite again with the database on PostgreSQL and, beside the
 * database queue, BullMQ on Redis. Addresses come from TEST_DATABASE_URL and TEST_REDIS_URL, by
 * default the local services (PostgreSQL with trust auth, database `test`; Redis).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.join(import.meta.dirname, '..');
const env = {
  ...process.env,
  TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  TEST_REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
};
const result = spawnSync(
  process.execPath,
  ['scripts/run-tests.ts', '--concurrency=2', 'server/test/**/*.test.ts'],
  { cwd: root, env, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
