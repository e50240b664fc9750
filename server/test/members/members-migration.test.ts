import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createTestDatabase, migrateBefore, type TestDatabase, testDialect } from '../helpers/database.ts';

describe(`0008-members on ${testDialect}`, () => {
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

  it('turns the members’ comma lists into custom teammates holding those codes at full', async () => {
    await migrateBefore(database, '0008-members');
    const old = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const now = Date.now();
    const account = await old
      .insertInto('accounts')
      .values({ username: 'legacy', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = (name: string, isOwner: number, permissions: string) =>
      old
        .insertInto('users')
        .values({
          account_id: account.id,
          username: name,
          email: `${name}@example.com`,
          is_owner: isOwner,
          permissions,
          status: 'active',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const owner = await user('legacy', 1, '');
    const member = await user('legacy_member', 0, '13,10,x');

    const applied = await migrateToLatest(database);
    assert.equal(applied[0], '0008-members', 'the members migration runs next on the old data');
    const users = await database.db
      .selectFrom('users')
      .select(['id', 'member_type', 'member_roles', 'display_name'])
      .orderBy('id')
      .execute();
    assert.deepEqual(users, [
      { id: owner.id, member_type: null, member_roles: '', display_name: null },
      { id: member.id, member_type: 'custom', member_roles: '', display_name: null },
    ]);
    const levels = await database.db
      .selectFrom('user_permissions')
      .select(['account_id', 'user_id', 'code', 'level'])
      .orderBy('code')
      .execute();
    assert.deepEqual(levels, [
      { account_id: account.id, user_id: member.id, code: 10, level: 'full' },
      { account_id: account.id, user_id: member.id, code: 13, level: 'full' },
    ]);
  });
});
