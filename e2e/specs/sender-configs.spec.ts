import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser, Page } from 'playwright-core';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';

/**
 * Do-not-disturb windows on the sender configuration screen: the shared rule "end not before
 * start" in both languages in the form, then a valid window saved and listed.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;

before(async () => {
  ({ herald, browser, owner } = await startConsoleTestbed());
});

after(() => stopConsoleTestbed({ browser, herald }));

async function openNoDisturb(page: Page, lang: 'zh-cn' | 'en'): Promise<void> {
  await page.goto(`${herald.url}/sendSetting/sender?lang=${lang}`);
  await waitForShell(page);
  await page.locator('.senders-tabs .ant-tabs-tab').nth(4).click();
  await page.locator('.sender-config-nodisturb .sender-config-form').waitFor();
}

async function fillWindow(page: Page, start: string, end: string): Promise<void> {
  await page.locator('.nodisturb-start').fill(start);
  await page.locator('.nodisturb-end').fill(end);
  await page.locator('.sender-config-nodisturb .sender-config-save').click();
}

test('a do-not-disturb window: end before start refused in both languages, a valid one listed', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    for (const [lang, message] of [
      ['zh-cn', '结束时间不能早于开始时间'],
      ['en', 'The end time cannot be earlier than the start time'],
    ] as const) {
      await openNoDisturb(page, lang);
      await fillWindow(page, '22:00', '21:00');
      await page.locator('.ant-form-item-explain-error', { hasText: message }).waitFor();
    }
    await fillWindow(page, '21:00', '23:30');
    const row = page.locator('.sender-config-nodisturb .sender-config-table tbody tr', { hasText: '23:30' });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /21:00/);
    await page.reload();
    await page.locator('.senders-tabs .ant-tabs-tab').nth(4).click();
    await page
      .locator('.sender-config-nodisturb .sender-config-table tbody tr', { hasText: '23:30' })
      .waitFor();
  }));
