import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { hashApiKey } from '../../server/src/core/api-users/api-user-auth.ts';
import { openDatabase } from '../../server/src/db/database.ts';
import { createTestUser, type TestUser } from '../harness/accounts.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { logIn, waitForShell } from '../harness/console.ts';

/**
 * The queue screen against a real Herald: mail accepted through the SendCloud-compatible API
 * shows as a queue row with its counters; suspending (confirmed in a dialog) shows it paused,
 * resuming (confirmed) shows it running again.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;
const DOMAIN = 'mail.e2e-queues.example';
const API_USER = 'e2e_queue_sender';
const API_KEY = randomBytes(24).toString('base64url');

before(async () => {
  const consoleDir = process.env.HERALD_CONSOLE_DIR;
  [herald, browser] = await Promise.all([
    startHerald({ env: consoleDir ? { HERALD_CONSOLE_DIR: consoleDir } : {} }),
    launchBrowser(),
  ]);
  owner = await createTestUser(herald);
  const database = openDatabase({ kind: 'sqlite', file: path.join(herald.dataDir, 'herald.db') });
  try {
    const db = database.db;
    const { account_id } = await db
      .selectFrom('users')
      .select('account_id')
      .where('username', '=', owner.userName)
      .executeTakeFirstOrThrow();
    const now = Date.now();
    const domain = await db
      .insertInto('sending_domains')
      .values({
        account_id,
        name: DOMAIN,
        status: 'verified',
        dkim_selector: 'herald',
        dkim_public_key: 'MIIB',
        dkim_private_key_sealed: 'sealed',
        verify_key: 'e2e',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const apiUser = await db
      .insertInto('api_users')
      .values({
        account_id,
        name: API_USER,
        email_type: 'batch',
        c_type: 'normal',
        domain_id: Number(domain.id),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('api_keys')
      .values({
        account_id,
        api_user_id: Number(apiUser.id),
        key_hash: hashApiKey(API_KEY),
        key_hint: API_KEY.slice(-4),
        created_at: now,
      })
      .execute();
  } finally {
    await database.close();
  }
});

after(async () => {
  await browser?.close();
  await herald?.stop();
});

test('accepted mail shows as a queue; suspend and resume with confirmation', (t) =>
  withPage(browser, t, async (page) => {
    const res = await fetch(`${herald.url}/apiv2/mail/send`, {
      method: 'POST',
      body: new URLSearchParams({
        apiUser: API_USER,
        apiKey: API_KEY,
        from: `news@${DOMAIN}`,
        to: 'a@example.invalid;b@example.invalid;c@example.invalid',
        subject: 'Queue',
        html: '<p>Hi</p>',
      }),
    });
    const body = (await res.json()) as { result: boolean; message: string };
    assert.equal(body.result, true, body.message);

    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendRelative/queue`);
    await waitForShell(page);
    const row = page.locator('.queue-table tbody tr', { hasText: API_USER });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', new RegExp(DOMAIN.replace(/\./g, '\\.')));
    assert.equal((await row.locator('td.queue-in').textContent())?.trim(), '3');
    assert.equal((await row.locator('.queue-state').textContent())?.trim(), '运行中');
    await row.locator('.queue-chart').waitFor();

    await row.locator('.queue-suspend').click();
    const dialog = page.locator('.queue-suspend-modal');
    await dialog.waitFor();
    assert.match((await dialog.textContent()) ?? '', new RegExp(`${API_USER}`));
    await dialog.locator('.queue-suspend-ok').click();
    await row.locator('.queue-state', { hasText: '已暂停' }).waitFor();
    await page.locator('.queue-pauses', { hasText: DOMAIN }).waitFor();

    await row.locator('.queue-resume').click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await row.locator('.queue-state', { hasText: '运行中' }).waitFor();
    await page.locator('.queue-pauses').waitFor({ state: 'detached' });

    await page.goto(`${herald.url}/sendResponse/queueStatus`);
    await page.locator('.queue-table tbody tr', { hasText: API_USER }).waitFor();
  }));
