import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, secretKeyEnv, type TestDatabase } from '../helpers/database.ts';

const cli = path.join(import.meta.dirname, '../../src/cli.ts');

/** The operators' money commands: prices, an adjustment with a reason (once per key), the balance. */
describe('ledger commands', () => {
  let testDb: TestDatabase;
  before(async () => {
    testDb = await createTestDatabase();
  });
  after(() => testDb.drop());

  const herald = (...args: string[]) => {
    const result = spawnSync(process.execPath, [cli, ...args], {
      env: { ...process.env, DATABASE_URL: testDb.url, ...secretKeyEnv() },
      encoding: 'utf8',
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  it('lists and sets prices', () => {
    const listed = herald('prices');
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /sms_notification\s+6 fen per 1\n/);
    const set = herald('prices:set', 'email', '120', '--unit', '1000');
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /email\s+120 fen per 1000\n/);
    const bad = herald('prices:set', 'email', '1', '--unit', '7');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /per 1, 10, 100 or 1,000 units/);
  });

  it('adjusts a balance with a reason, once per key, and shows it', () => {
    const created = herald('accounts:create', 'money_user', '--email', 'money@example.com', '--active');
    assert.equal(created.code, 0, created.stderr);
    const noReason = herald('ledger:adjust', 'money_user', '10');
    assert.equal(noReason.code, 2);
    assert.match(noReason.stderr, /needs a non-zero whole amount in fen and a reason/);
    for (let i = 0; i < 2; i++) {
      const done = herald(
        'ledger:adjust',
        'money_user',
        '12.5',
        '--reason',
        'bank transfer ref 8812',
        '--key',
        'ref-8812',
      );
      assert.equal(done.code, 0, done.stderr);
      assert.match(done.stdout, /money_user: adjusted by 12\.50 yuan; balance 12\.50 yuan/);
    }
    assert.equal(herald('ledger:adjust', 'money_user', '--reason', 'correction', '--', '-0.5').code, 0);
    const shown = herald('ledger:balance', 'money_user');
    assert.match(shown.stdout, /money_user: balance 12\.00 yuan/);
    assert.match(shown.stdout, /adjustment\s+-0\.50 correction/);
    assert.match(shown.stdout, /adjustment\s+12\.50 bank transfer ref 8812/);
  });
});
