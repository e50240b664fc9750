import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';
import { type ApiCredentials, sendMail, writeSendingSetup } from '../harness/sending.ts';

/**
 * The queue screen against a real Herald: mail accepted through the SendCloud-compatible API
 * shows as a queue row with its counters; suspending (confirmed in a dialog) shows it paused,
 * resuming (confirmed) shows it running again.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;
let sender: ApiCredentials;
const DOMAIN = 'mail.e2e-queues.example';
const API_USER = 'e2e_queue_sender';

before(async () => {
  ({ herald, browser, owner } = await startConsoleTestbed());
  sender = await writeSendingSetup(herald, owner, { domain: DOMAIN, apiUser: API_USER, emailType: 'batch' });
});

after(() => stopConsoleTestbed({ browser, herald }));

test('accepted mail shows as a queue; suspend and resume with confirmation', (t) =>
  withPage(browser, t, async (page) => {
    const body = await sendMail(herald, sender, {
      from: `news@${DOMAIN}`,
      to: 'a@example.invalid;b@example.invalid;c@example.invalid',
      subject: 'Queue',
      html: '<p>Hi</p>',
    });
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
