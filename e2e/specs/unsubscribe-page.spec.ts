import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';

/**
 * The unsubscribe page designer: a page designed on the style screen (name, colours, English,
 * one reason) is checked by the shared rules, saved, listed, and its preview shows the page as
 * recipients see it.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;

before(async () => {
  ({ herald, browser, owner } = await startConsoleTestbed());
});

after(() => stopConsoleTestbed({ browser, herald }));

test('design an unsubscribe page, save it, see it listed and previewed', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendSetting/unsubsribeSetting?lang=en`);
    await waitForShell(page);
    await page.locator('.unsubscribe-pages-table .ant-empty').waitFor();
    await page.locator('.unsubscribe-add').click();

    const form = page.locator('.unsubscribe-style-form');
    await form.waitFor();
    await page.locator('#name').fill('Spring sale');
    await page.locator('#pageBackground').fill('#abc');
    // The designer starts from the built-in page: every reason ticked; untick them all.
    for (const reason of ['Do not want to receive', 'Did not subscribe', 'Spam', 'Fraud'])
      await form.getByLabel(reason, { exact: true }).uncheck();
    await page.locator('.unsubscribe-save').click();
    await page
      .locator('.ant-form-item-explain-error', { hasText: 'Choose at least one unsubscribe reason' })
      .waitFor();

    await form.getByLabel('English', { exact: true }).check();
    await form.getByLabel('Spam', { exact: true }).check();
    await page.locator('#confirmBackground').fill('#c00');
    await page.locator('#textColor').fill('blue');
    await page.locator('.unsubscribe-save').click();
    await page.locator('.ant-form-item-explain-error', { hasText: 'Colours are #rgb or #rrggbb' }).waitFor();
    await page.locator('#textColor').fill('#123456');

    // The live preview shows the draft as the server renders it.
    const live = page.frameLocator('.unsubscribe-style-page .unsubscribe-frame');
    await live.getByText('These emails are spam').waitFor();
    assert.match((await live.locator('style').textContent()) ?? '', /\.confirm\{background:#c00;/);

    await page.locator('.unsubscribe-save').click();
    const row = page.locator('.unsubscribe-pages-table tbody tr', { hasText: 'Spring sale' });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /English.*Spam/);

    await row.locator('.unsubscribe-use').click();
    await row.locator('.ant-tag', { hasText: 'In use' }).waitFor();

    await row.locator('.unsubscribe-preview').click();
    await page.waitForURL(/\/sendSetting\/unsubsribeSetting\/preview\/\d+/);
    await page.getByText('Preview: Spring sale').waitFor();
    const frame = page.frameLocator('.unsubscribe-preview-page .unsubscribe-frame');
    await frame.getByText('Do you want to unsubscribe?').waitFor();
    await frame.getByText('These emails are spam').waitFor();
    const style = (await frame.locator('style').textContent()) ?? '';
    assert.match(style, /body\{[^}]*background:#abc;color:#123456/);
    assert.equal(await frame.getByText('I never subscribed').count(), 0);
  }));
