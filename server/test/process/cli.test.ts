import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AuthService } from '../../src/core/auth/auth.service.ts';
import { quotaDay } from '../../src/core/send/quota.ts';
import { SessionsService } from '../../src/core/sessions/sessions.service.ts';
import { createTestDatabase, secretKeyEnv, type TestDatabase } from '../helpers/database.ts';

const cli = path.join(import.meta.dirname, '../../src/cli.ts');

describe('operators command line', () => {
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
  const login = async (username: string, password: string) => {
    const database = testDb.open();
    try {
      await new AuthService(database, new SessionsService(database)).login(username, password);
      return 'ok';
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    } finally {
      await database.close();
    }
  };

  it('creates an inactive account that can log in once activated', async () => {
    const created = herald(
      'accounts:create',
      'cli_user',
      '--email',
      'cli@example.com',
      '--password',
      'Cli#Pass2026',
    );
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /created account \d+ with owner cli_user \(inactive\)/);
    assert.equal(await login('cli_user', 'Cli#Pass2026'), 'ACCOUNT_NOT_ACTIVE');
    assert.equal(herald('accounts:activate', 'cli_user').code, 0);
    assert.equal(await login('cli_user', 'Cli#Pass2026'), 'ok');
  });

  it('suspends, freezes and resumes an account, and resets a password, printing a generated one', async () => {
    assert.match(herald('accounts:suspend', 'cli_user').stdout, /cli_user: account active → suspended/);
    assert.equal(await login('cli_user', 'Cli#Pass2026'), 'ACCOUNT_SUSPENDED');
    assert.match(herald('accounts:freeze', 'cli_user').stdout, /cli_user: account suspended → frozen/);
    assert.equal(await login('cli_user', 'Cli#Pass2026'), 'ok', 'a frozen account still logs in');
    assert.match(herald('accounts:resume', 'cli_user').stdout, /cli_user: account frozen → active/);
    const reset = herald('accounts:reset-password', 'cli_user');
    const password = /new password: (\S+)/.exec(reset.stdout)?.[1];
    assert.ok(password, reset.stdout);
    assert.equal(await login('cli_user', 'Cli#Pass2026'), 'AUTH_BAD_CREDENTIALS');
    assert.equal(await login('cli_user', password), 'ok');
  });

  it('sets the plan and daily quota, grants a temporary increase and shows the usage', () => {
    const today = quotaDay(Date.now());
    const tomorrow = quotaDay(Date.now() + 86_400_000);
    const usage = herald('accounts:usage', 'cli_user');
    assert.equal(usage.code, 0, usage.stderr);
    assert.equal(
      usage.stdout.trim(),
      `cli_user: plan free, daily quota plan default; today (${today}) 0 of 10 sent; temporary increase none (0 of 2 this month)`,
    );
    assert.match(
      herald('accounts:quota', 'cli_user', '40').stdout,
      /daily quota 40; today \(\S+\) 0 of 40 sent/,
    );
    assert.match(
      herald('accounts:raise', 'cli_user', '25').stdout,
      new RegExp(`0 of 65 sent; temporary increase \\+25 a day until ${tomorrow} \\(1 of 2 this month\\)`),
    );
    const again = herald('accounts:raise', 'cli_user', '5');
    assert.equal(again.code, 2);
    assert.match(
      again.stderr,
      new RegExp(`already has a temporary increase \\(\\+25 emails a day, until ${tomorrow}\\)`),
    );
    assert.match(
      herald('accounts:plan', 'cli_user', 'paid').stdout,
      /plan paid, daily quota 40; .* 0 of 65 sent/,
    );
    assert.match(
      herald('accounts:quota', 'cli_user', 'default').stdout,
      /plan paid, daily quota plan default; today \(\S+\) 0 sent, no limit;/,
    );
    const badPlan = herald('accounts:plan', 'cli_user', 'gold');
    assert.equal(badPlan.code, 2);
    assert.match(badPlan.stderr, /The plan is free or paid/);
    assert.match(
      herald('accounts:quota', 'cli_user', '0').stderr,
      /The daily quota is a whole number from 1/,
    );
    assert.match(herald('accounts:raise', 'cli_user').stderr, /accounts:raise needs a value/);
  });

  it('explains bad input and unknown users with exit code 2', () => {
    const weak = herald('accounts:create', 'weak_user', '--email', 'weak@example.com', '--password', 'weak');
    assert.equal(weak.code, 2);
    assert.match(weak.stderr, /The password must be 8-16 characters/);
    const taken = herald(
      'accounts:create',
      'cli_user',
      '--email',
      'other@example.com',
      '--password',
      'Cli#Pass2026',
    );
    assert.equal(taken.code, 2);
    assert.match(taken.stderr, /already used/);
    const missing = herald('accounts:activate', 'ghost_user');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /ghost_user not found/);
    assert.match(herald('frobnicate').stderr, /unknown command "frobnicate"[\s\S]*usage:/);
  });
});
