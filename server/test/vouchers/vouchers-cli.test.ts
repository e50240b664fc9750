import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, secretKeyEnv, type TestDatabase } from '../helpers/database.ts';

const cli = path.join(import.meta.dirname, '../../src/cli.ts');

/** The operators' voucher and package commands: issue to an account or bare, list, grant a package. */
describe('voucher and package commands', () => {
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

  it('issues vouchers and grants packages', () => {
    assert.equal(
      herald('accounts:create', 'coupon_user', '--email', 'coupon@example.com', '--active').code,
      0,
    );
    const issued = herald('vouchers:issue', 'coupon_user', '20', '--count', '2', '--reason', 'outage');
    assert.equal(issued.code, 0, issued.stderr);
    const lines = issued.stdout.trim().split('\n');
    assert.equal(lines.length, 2);
    for (const line of lines)
      assert.match(line, /^[A-HJKMNP-Z2-9]{16} 20\.00 yuan coupon_user until \d{4}-\d\d-\d\d /);
    const bare = herald('vouchers:issue', '--bare', '5');
    assert.equal(bare.code, 0, bare.stderr);
    assert.match(bare.stdout, /^[A-HJKMNP-Z2-9]{16} 5\.00 yuan bare until/);
    const invalid = herald('vouchers:issue', 'coupon_user', 'ten');
    assert.equal(invalid.code, 2);
    assert.match(invalid.stderr, /between 0\.01 and 100,000 yuan/);

    const listed = herald('vouchers');
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /5\.00 unused\s+\(bare\)/);
    assert.match(listed.stdout, /3 vouchers/);
    assert.match(herald('vouchers', 'coupon_user').stdout, /2 vouchers/);

    const granted = herald('packages:grant', 'coupon_user', 'email', '1000', '--months', '3');
    assert.equal(granted.code, 0, granted.stderr);
    assert.match(granted.stdout, /coupon_user: 1000 email until/);
    const unknown = herald('packages:grant', 'coupon_user', 'telegram', '10');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /price list type/);
    assert.match(herald('packages').stdout, /coupon_user\s+email\s+0\/1000 active/);
  });
});
