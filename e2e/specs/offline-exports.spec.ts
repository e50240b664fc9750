import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';
import { type MailPeers, startMailPeers } from '../harness/mail-peers.ts';
import { type ApiCredentials, sendMail, writeSendingSetup } from '../harness/sending.ts';

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
let sender: ApiCredentials;
const domain = 'mail.e2e-export.example';

before(async () => {
  peers = await startMailPeers();
  ({ herald, browser, owner } = await startConsoleTestbed(peers.env));
  sender = await writeSendingSetup(herald, owner, { domain, apiUser: `e2e_export_${process.pid}` });
});

after(() => stopConsoleTestbed({ browser, herald }, peers));

test('an export asked for on the email status screen becomes ready on the offline screen and downloads', (t) =>
  withPage(browser, t, async (page) => {
    const sent = await sendMail(herald, sender, {
      from: `news@${domain}`,
      to: 'first@export-e2e.example;second@export-e2e.example',
      subject: '导出测试',
      html: '<p>Hi</p>',
    });
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
