import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { LedgerService } from '../../src/core/ledger/ledger.service.ts';
import type { Database } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createTestDatabase, migrateBefore, type TestDatabase } from '../helpers/database.ts';

/**
 * Migration 0051 on a database of an older Herald: a balance kept in accounts.balance_fen becomes
 * an opening entry of the ledger, so the one balance left still equals the sum of its entries,
 * and charging starts after the events already logged (history is not billed).
 */
describe('migration 0051 (ledger)', () => {
  let testDb: TestDatabase;
  let database: Database;
  before(async () => {
    testDb = await createTestDatabase({ migrate: false });
    database = testDb.open();
  });
  after(async () => {
    await database.close();
    await testDb.drop();
  });

  it('carries an old balance over as an opening entry and starts charging at the log’s end', async () => {
    await migrateBefore(database, '0051-ledger');
    const now = Date.now();
    const { rows } = await sql<{
      id: number;
    }>`INSERT INTO accounts (username, balance_fen, plan, created_at, updated_at)
      VALUES ('old_money', 1234, 'paid', ${now}, ${now}) RETURNING id`.execute(database.db);
    const accountId = Number(rows[0]?.id);
    await sql`INSERT INTO mail_events (account_id, kind, at, message_id, recipient, recipient_domain)
      VALUES (${accountId}, 'deliver', ${now}, 1, 'a@example.org', 'example.org')`.execute(database.db);
    await migrateToLatest(database);

    const ledger = new LedgerService(database);
    assert.equal(await ledger.balance({ accountId }), 1234);
    assert.deepEqual(
      (await ledger.entries({ accountId })).map((e) => [e.kind, e.amountFen, e.idempotencyKey]),
      [['adjustment', 1234, `opening:${accountId}`]],
    );
    assert.equal(await ledger.chargeMail(100), 0, 'the delivered mail before the upgrade is not billed');
    assert.equal(await ledger.drift(), 0);
  });
});
