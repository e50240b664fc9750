import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase, testDialect } from '../helpers/database.ts';

const run = promisify(execFile);
const fixture = path.join(import.meta.dirname, '../fixtures/sqlite-counter-writer.ts');
const ROUNDS = 200;

/**
 * Herald's roles (api, worker, gateway) may run as separate processes on one SQLite file. Two of
 * them run read-then-write transactions on the same row at once: every transaction waits its
 * turn (the busy timeout) and commits, none fails with "database is locked", and none loses the
 * other's update. A transaction begun DEFERRED would read under a shared lock and fail at its
 * first write whenever the other process had written in between: SQLite cannot wait there.
 */
describe('SQLite write transactions from several processes', { skip: testDialect !== 'sqlite' }, () => {
  let testDb: TestDatabase;
  after(async () => {
    await testDb?.drop();
  });

  it(`two processes, ${ROUNDS} read-then-write transactions each on one row: all commit, none lost`, async () => {
    testDb = await createTestDatabase({ migrate: false });
    const database = testDb.open();
    await sql`CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)`.execute(database.db);
    await sql`INSERT INTO counter (id, n) VALUES (1, 0)`.execute(database.db);
    const file = testDb.config.kind === 'sqlite' ? testDb.config.file : '';
    const env = {
      ...process.env,
      COUNTER_ROUNDS: String(ROUNDS),
      COUNTER_START_AT: String(Date.now() + 1500),
    };
    const outputs = await Promise.all(
      [1, 2].map(() => run(process.execPath, [fixture, file], { env, timeout: 120_000 })),
    );
    const results = outputs.map(
      ({ stdout }) => JSON.parse(stdout.trim()) as { committed: number; failures: string[] },
    );
    assert.deepEqual(
      results.map((r) => r.failures.slice(0, 3)),
      [[], []],
      'no transaction failed',
    );
    assert.deepEqual(
      results.map((r) => r.committed),
      [ROUNDS, ROUNDS],
    );
    const row = await sql<{ n: number }>`SELECT n FROM counter WHERE id = 1`.execute(database.db);
    assert.equal(Number(row.rows[0]?.n), 2 * ROUNDS, 'every increment is kept');
    await database.close();
  });
});
