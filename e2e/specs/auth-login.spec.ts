import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser, Page } from 'playwright-core';
import { AccountsService } from '../../server/src/core/accounts/accounts.service.ts';
import { hashPassword } from '../../server/src/core/auth/password.ts';
import { openDatabase } from '../../server/src/db/database.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { waitForShell } from '../harness/console.ts';
import { IMAGE_CODE_ANSWER, knownImageCodes, solveSlider } from '../harness/human-checks.ts';

/**
 * The login screen's refusals against the real server: a wrong password in both languages, the
 * image code the server asks for after three failures, and an inactive account sent to /activate.
 */
let herald: Herald;
let browser: Browser;
const PASSWORD = 'Login#2026ok';

before(async () => {
  [herald, browser] = await Promise.all([startHerald(), launchBrowser()]);
});

after(async () => {
  await browser?.close();
  await herald?.stop();
});

let counter = 0;

async function createAccount(status: 'active' | 'inactive'): Promise<string> {
  const database = openDatabase({ kind: 'sqlite', file: path.join(herald.dataDir, 'herald.db') });
  try {
    const username = `login_${process.pid}_${++counter}`;
    await new AccountsService(database).createWithOwner({
      username,
      email: `${username}@example.com`,
      passwordHash: await hashPassword(PASSWORD),
      status,
    });
    return username;
  } finally {
    await database.close();
  }
}

async function submitLogin(page: Page, username: string, password: string): Promise<void> {
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(password);
  await solveSlider(page, herald);
  await page.getByTestId('login-submit').click();
}

test('a wrong password in both languages; the image code after three failures', (t) =>
  withPage(browser, t, async (page) => {
    const username = await createAccount('active');
    await knownImageCodes(page, herald);
    await page.goto(`${herald.url}/login`);

    await submitLogin(page, username, 'Wrong#2026');
    await page.getByTestId('form-error').getByText('用户名或密码错误').waitFor();

    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Log in to Herald' }).waitFor();
    await submitLogin(page, username, 'Wrong#2026');
    await page.getByTestId('form-error').getByText('Incorrect user name or password').waitFor();
    await submitLogin(page, username, 'Wrong#2026');
    await page.getByTestId('form-error').getByText('Incorrect user name or password').waitFor();

    // The fourth try: the server now wants an image code, and the form shows one.
    await submitLogin(page, username, PASSWORD);
    await page
      .getByTestId('image-code-error')
      .getByText('Please enter the image verification code')
      .waitFor();
    await page.getByTestId('image-code-image').waitFor();
    await page.locator('#captchaCode').fill(IMAGE_CODE_ANSWER);
    await submitLogin(page, username, PASSWORD);
    await waitForShell(page);

    // The session rides in an httpOnly cookie: the console works, and no script in it can read
    // the credential.
    const token = (await page.context().cookies()).find((cookie) => cookie.name === 'token');
    assert.equal(token?.httpOnly, true);
    const seen = await page.evaluate(() => document.cookie);
    assert.ok(!seen.split('; ').some((pair) => pair.startsWith('token=')), `script sees: ${seen}`);
    assert.ok(!seen.includes(token?.value ?? '-'), 'nor its value under another name');
  }));

test('an inactive account goes to /activate', (t) =>
  withPage(browser, t, async (page) => {
    const username = await createAccount('inactive');
    await page.goto(`${herald.url}/login`);
    await submitLogin(page, username, PASSWORD);
    await page.waitForURL((url) => url.pathname === '/activate');
    await page.getByTestId('activate-needed').getByText('账号未激活，请先激活').waitFor();
    await page
      .getByTestId('activate-page')
      .locator('#userName')
      .and(page.locator(`[value="${username}"]`))
      .waitFor();
  }));
