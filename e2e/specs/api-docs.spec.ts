import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser, Page } from 'playwright-core';
import { createTestUser, type TestUser } from '../harness/accounts.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { logIn, waitForShell } from '../harness/console.ts';

/**
 * The API documentation (issue 16): the sidebar's "API documentation" link opens /docs/api/,
 * where Herald's own copy of Swagger UI renders the OpenAPI document of the reader's language,
 * under Herald's Content-Security-Policy and without a request to any other host.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;

before(async () => {
  [herald, browser] = await Promise.all([startHerald(), launchBrowser()]);
  owner = await createTestUser(herald);
});

after(async () => {
  await browser?.close();
  await herald?.stop();
});

/** Opens the docs from the sidebar link; answers the new tab and what it asked of other hosts or the CSP refused. */
async function openDocs(page: Page, linkName: string, query = '') {
  await logIn(page.context(), herald, owner);
  await page.goto(`${herald.url}/backend/dashborad${query}`);
  await waitForShell(page);
  const problems: string[] = [];
  page.context().on('request', (request) => {
    if (!request.url().startsWith(herald.url) && !request.url().startsWith('data:')) {
      problems.push(`request to ${request.url()}`);
    }
  });
  const [docs] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByTestId('sidebar-menu').getByRole('link', { name: linkName }).click(),
  ]);
  docs.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  docs.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await docs.waitForLoadState();
  assert.equal(new URL(docs.url()).pathname, '/docs/api/');
  return { docs, problems };
}

/**
 * The GET operation of mail/send, found with the page's filter (the operations are many and drawn
 * as they scroll into view) and opened; answers the text shown for each named parameter.
 */
async function mailSendParameters(docs: Page, names: string[]): Promise<string[]> {
  await docs.locator('.opblock-tag').first().waitFor();
  await docs.locator('input.operation-filter-input').fill('mail');
  const operation = docs
    .locator('.opblock.opblock-get')
    .filter({ has: docs.locator('.opblock-summary-path[data-path="/apiv2/mail/send"]') });
  await operation.locator('.opblock-summary').first().click();
  const texts: string[] = [];
  for (const name of names) {
    const row = operation.locator(`tr[data-param-name="${name}"]`);
    await row.waitFor();
    texts.push((await row.textContent()) ?? '');
  }
  return texts;
}

test('the sidebar link opens the API documentation in Chinese, mail/send with its parameters', (t) =>
  withPage(browser, t, async (page) => {
    const { docs, problems } = await openDocs(page, 'API 文档');
    await docs
      .getByRole('heading', { name: /Herald API 文档/ })
      .first()
      .waitFor();
    const [from, to] = await mailSendParameters(docs, ['from', 'to']);
    assert.match(from ?? '', /发信人地址/);
    assert.match(to ?? '', /最多 100 个/);
    assert.deepEqual(problems, []);
  }));

test('in English, and the page switches language', (t) =>
  withPage(
    browser,
    t,
    async (page) => {
      // The console in English (its ?lang= choice is kept in the language cookie the docs read too).
      const { docs, problems } = await openDocs(page, 'API documentation', '?lang=en');
      await docs
        .getByRole('heading', { name: /Herald API reference/ })
        .first()
        .waitFor();
      assert.match((await mailSendParameters(docs, ['from']))[0] ?? '', /Sender address/);

      await docs.getByRole('link', { name: '中文' }).click();
      await docs
        .getByRole('heading', { name: /Herald API 文档/ })
        .first()
        .waitFor();
      assert.match((await mailSendParameters(docs, ['from']))[0] ?? '', /发信人地址/);
      assert.deepEqual(problems, []);
    },
    { locale: 'en-US' },
  ));
