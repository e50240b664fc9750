import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { linksIn } from '../../server/test/helpers/mail.ts';
import { createTestUser } from '../harness/accounts.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { waitForShell } from '../harness/console.ts';
import { IMAGE_CODE_ANSWER, knownImageCodes, solveSlider } from '../harness/human-checks.ts';
import { type MailPeers, startMailPeers } from '../harness/mail-peers.ts';

/**
 * "Forgot password" through the console against the real server: the request with an image code,
 * the reset mail caught by a loopback MX, its link setting a new password, the login with it, and
 * the same link refused the second time.
 */
let herald: Herald;
let browser: Browser;
let peers: MailPeers;

before(async () => {
  peers = await startMailPeers();
  [herald, browser] = await Promise.all([startHerald({ env: peers.env }), launchBrowser()]);
});

after(async () => {
  await browser?.close();
  await herald?.stop();
  await peers?.close();
});

test('forgot password → mail → new password → log in; the used link → /resetFailed', (t) =>
  withPage(browser, t, async (page) => {
    const user = await createTestUser(herald);
    const email = `${user.userName}@example.com`;
    const password = 'Renewed#2026';
    await knownImageCodes(page, herald);

    await page.goto(`${herald.url}/login`);
    await page.getByTestId('forgot-link').click();
    await page.waitForURL((url) => url.pathname === '/reset');
    await page.locator('#email').fill(email);
    await page.getByTestId('image-code-image').waitFor();
    await page.locator('#captchaCode').fill(IMAGE_CODE_ANSWER);
    await page.getByTestId('reset-submit').click();
    await page.getByTestId('reset-mail-sent').getByText(email).waitFor();

    const { mail } = await peers.nextMail(email);
    const link = linksIn(mail.raw).find((candidate) => candidate.includes('/resetPassword?token='));
    assert.ok(link, 'the reset mail has a link to /resetPassword');
    await page.goto(link);
    await page.locator('#password').fill(password);
    await page.locator('#confirmPassword').fill('Different#2026');
    await page.getByTestId('reset-password-submit').click();
    await page.getByText('两次输入的密码不一致').waitFor();
    await page.locator('#confirmPassword').fill(password);
    await page.getByTestId('reset-password-submit').click();
    await page.waitForURL((url) => url.pathname === '/resetSuccess');

    await page.getByRole('button', { name: '立即登录' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.locator('#username').fill(email);
    await page.locator('#password').fill(password);
    await solveSlider(page, herald);
    await page.getByTestId('login-submit').click();
    await waitForShell(page);

    await page.context().clearCookies();
    await page.goto(link);
    await page.locator('#password').fill('Another#2026');
    await page.locator('#confirmPassword').fill('Another#2026');
    await page.getByTestId('reset-password-submit').click();
    await page.waitForURL((url) => url.pathname === '/resetFailed');
    await page.getByText('密码重置失败').waitFor();
  }));
