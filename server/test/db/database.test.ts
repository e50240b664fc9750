import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.ts';
import { MIGRATIONS, migrateToLatest } from '../../src/db/migrate.ts';
import { createTestDatabase, type TestDatabase, testDialect } from '../helpers/database.ts';

describe(`storage on ${testDialect}`, () => {
  let testDb: TestDatabase;
  let database: Database;
  before(async () => {
    testDb = await createTestDatabase();
    database = testDb.open();
  });
  after(async () => {
    await database.close();
    await testDb.drop();
  });

  it('records applied migrations in schema_version and applies each once', async () => {
    assert.ok(Object.keys(MIGRATIONS).length >= 11);
    assert.ok(Object.hasOwn(MIGRATIONS, '0015-profile-details'));
    const again = await migrateToLatest(database);
    assert.deepEqual(again, [], 'nothing left to apply');
    const rows = await sql<{ name: string }>`select name from schema_version order by name`.execute(
      database.db,
    );
    assert.deepEqual(
      rows.rows.map((r) => r.name),
      Object.keys(MIGRATIONS).sort(),
    );
  });

  it('runs migrations from several processes at once without conflict', async () => {
    const others = [testDb.open(), testDb.open()];
    const results = await Promise.all(others.map((o) => migrateToLatest(o)));
    await Promise.all(others.map((o) => o.close()));
    assert.deepEqual(results, [[], []]);
  });

  it('keeps millisecond timestamps as numbers', async () => {
    const now = Date.now();
    await database.db
      .insertInto('accounts')
      .values({ username: `acct_${now}`, created_at: now, updated_at: now })
      .execute();
    const row = await database.db
      .selectFrom('accounts')
      .selectAll()
      .where('username', '=', `acct_${now}`)
      .executeTakeFirstOrThrow();
    assert.equal(typeof row.id, 'number');
    assert.equal(row.created_at, now);
  });

  if (testDialect === 'sqlite') {
    it('runs SQLite in WAL mode with foreign keys and a busy timeout', async () => {
      const pragma = async (name: string) =>
        Object.values((await sql.raw(`pragma ${name}`).execute(database.db)).rows[0] as object)[0];
      assert.equal(await pragma('journal_mode'), 'wal');
      assert.equal(await pragma('foreign_keys'), 1);
      assert.equal(await pragma('busy_timeout'), 10000);
    });
  }
});
