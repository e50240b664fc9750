import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { hashApiKey } from '../../server/src/core/api-users/api-user-auth.ts';
import { openDatabase } from '../../server/src/db/database.ts';
import { createTestUser, type TestUser } from '../harness/accounts.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { logIn, waitForShell } from '../harness/console.ts';
import { type MailPeers, startMailPeers } from '../harness/mail-peers.ts';

/**
 * An offline export against a real Herald: mail accepted through a SendCloud-style form post,
 * an export asked for from the email status screen, followed on the offline screen until it is
 * ready (the worker role writes it), then downloaded: the gzip'd CSV holds the mail. The
 * verified domain, the API_USER and its key are rows written into Herald's database, as the
 * sending set-up leaves them.
 */
let peers: MailPeers;
let herald: Herald;
let browser: Browser;
let owner: TestUser;
const apiUser = `e2e_export_${process.pid}`;
const apiKey = randomBytes(24).toString('base64url');
const domain = 'mail.e2e-export.example';

before(async () => {
  peers = await startMailPeers();
  const consoleDir = process.env.HERALD_CONSOLE_DIR;
  [herald, browser] = await Promise.all([
    startHerald({ env: { ...peers.env, ...(consoleDir ? { HERALD_CONSOLE_DIR: consoleDir } : {}) } }),
    launchBrowser(),
  ]);
  owner = await createTestUser(herald);
  const { db, close } = openDatabase({ kind: 'sqlite', file: path.join(herald.dataDir, 'herald.db') });
  try {
    const { account_id: accountId } = await db
      .selectFrom('users')
      .select('account_id')
      .where('username', '=', owner.userName)
      .executeTakeFirstOrThrow();
    const now = Date.now();
    const d = await db
      .insertInto('sending_domains')
      .values({
        account_id: accountId,
        name: domain,
        status: 'verified',
        dkim_selector: 'herald',
        dkim_public_key: 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA',
        dkim_private_key_sealed: 'sealed',
        verify_key: 'e2e',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const u = await db
      .insertInto('api_users')
      .values({
        account_id: accountId,
        name: apiUser,
        email_type: 'trigger',
        c_type: 'normal',
        domain_id: Number(d.id),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('api_keys')
      .values({
        account_id: accountId,
        api_user_id: Number(u.id),
        key_hash: hashApiKey(apiKey),
        key_hint: apiKey.slice(-4),
        created_at: now,
      })
      .execute();
  } finally {
    await close();
  }
});

after(async () => {
  await browser?.close();
  await herald?.stop();
  await peers?.close();
});

test('an export asked for on the email status screen becomes ready on the offline screen and downloads', (t) =>
  withPage(browser, t, async (page) => {
    const res = await fetch(`${herald.url}/apiv2/mail/send`, {
      method: 'POST',
      body: new URLSearchParams({
        apiUser,
        apiKey,
        from: `news@${domain}`,
        to: 'first@export-e2e.example;second@export-e2e.example',
        subject: '导出测试',
        html: '<p>Hi</p>',
      }),
    });
    const sent = (await res.json()) as { result: boolean; message: string };
    assert.equal(sent.result, true, sent.message);

    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendResponse/emailStatus`);
    await waitForShell(page);
    await page.locator('.email-status-table tr', { hasText: 'first@export-e2e.example' }).waitFor();
    await page.locator('.email-status-export').click();

    await page.waitForURL(/\/sendResponse\/offline$/);
    const row = page.locator('.offline-exports-table tr.ant-table-row').first();
    await row.getByText('邮件状态').waitFor();
    await row.locator('.export-status-using').waitFor({ timeout: 60_000 });
    await row.locator('.ant-progress-status-success').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.locator('.export-download').click(),
    ]);
    assert.match(download.suggestedFilename(), /^emailStatus-\d+-[\d-]+\.csv\.gz$/);
    const text = gunzipSync(await readFile((await download.path()) ?? '')).toString('utf8');
    assert.ok(text.startsWith('\uFEFF邮件ID,'), 'a Chinese header after the BOM');
    assert.match(text, /first@export-e2e\.example/);
    assert.match(text, /second@export-e2e\.example/);
    assert.match(text, /导出测试/);
    await row.locator('.export-status-used').waitFor();
  }));
