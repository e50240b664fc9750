import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser, Page } from 'playwright-core';
import { decodedBody, linksIn } from '../../server/test/helpers/mail.ts';
import { createTestUser } from '../harness/accounts.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { waitForShell } from '../harness/console.ts';
import { IMAGE_CODE_ANSWER, knownImageCodes, solveSlider } from '../harness/human-checks.ts';
import { type MailPeers, startMailPeers } from '../harness/mail-peers.ts';

/**
 * Sign-up through the console against the real server: the shared rules and the availability
 * checks under their fields, the slider and the image code, the activation mail caught by a
 * loopback MX, its link opening /activateSuccess, and the first login landing on the dashboard.
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

const PASSWORD = 'Signup#2026';

async function logInThroughForm(page: Page, username: string, password: string): Promise<void> {
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(password);
  await solveSlider(page, herald);
  await page.getByTestId('login-submit').click();
}

test('rules and availability show under their fields', (t) =>
  withPage(browser, t, async (page) => {
    const taken = await createTestUser(herald);
    await page.goto(`${herald.url}/register`);
    await page.locator('#userName').fill(taken.userName);
    await page.locator('#email').click();
    await page.getByTestId('field-userName-error').getByText('用户名已被使用').waitFor();
    await page.locator('#email').fill('not-an-email');
    await page.locator('#phone').click();
    await page.getByTestId('field-email-error').getByText('邮箱格式错误').waitFor();
    await page.getByTestId('register-submit').click();
    await page
      .getByTestId('field-password-error')
      .getByText(/^密码为8-16位/)
      .waitFor();
    await page.getByTestId('field-agreement-error').getByText('请阅读并同意服务协议').waitFor();
  }));

test('sign up, activate from the mail, log in to the dashboard', (t) =>
  withPage(browser, t, async (page) => {
    const userName = `ui_${process.pid}`;
    const email = `${userName}@example.com`;
    await knownImageCodes(page, herald);
    await page.goto(`${herald.url}/register`);
    await page.locator('#userName').fill(userName);
    await page.locator('#email').fill(email);
    await page.locator('#phone').fill(`139${String(process.pid).padStart(8, '0').slice(-8)}`);
    await page.getByTestId('field-userName').getByText('可以使用').waitFor();
    await page.locator('#password').fill(PASSWORD);
    await page.locator('#confirmPassword').fill(PASSWORD);
    await page.getByTestId('agreement').check();
    await page.getByTestId('image-code-image').waitFor();
    await page.locator('#captchaCode').fill(IMAGE_CODE_ANSWER);
    await solveSlider(page, herald);
    await page.getByTestId('register-submit').click();

    await page.waitForURL((url) => url.pathname === '/activate');
    await page.getByTestId('activate-sent').getByText(email).waitFor();
    await page.getByTestId('activate-sent').getByText('请在 3 天内点击邮件中的链接完成激活').waitFor();

    const { mail } = await peers.nextMail(email);
    // The page and the mail state the same validity.
    assert.match(decodedBody(mail.raw), /请在 3 天内打开下面的链接激活账号/);
    const link = linksIn(mail.raw).find((candidate) => candidate.includes('regConfirm'));
    assert.ok(link, 'the activation mail has a link');
    await page.goto(link);
    await page.waitForURL((url) => url.pathname === '/activateSuccess');
    await page.getByText('账号激活成功').waitFor();

    await page.getByRole('button', { name: '选择产品' }).click();
    await page.getByTestId('product-email').click();
    await page.waitForURL((url) => url.pathname === '/login');
    await logInThroughForm(page, userName, PASSWORD);
    await page.waitForURL((url) => url.pathname === '/backend/dashborad');
    await waitForShell(page);
    await page.getByTestId('backend-shell').getByText(userName).first().waitFor();
  }));

test("the agreement and privacy links open Herald's own pages, in the chosen language", (t) =>
  withPage(browser, t, async (page) => {
    await page.goto(`${herald.url}/register`);
    const [terms] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('terms-link').click()]);
    await terms.getByTestId('legal-document').getByRole('heading', { name: '服务协议' }).waitFor();
    await terms.getByText('单次发送的硬退信率超过 5% 即达到约定上限', { exact: false }).waitFor();
    await terms.getByRole('link', { name: '隐私政策' }).click();
    await terms.waitForURL((url) => url.pathname === '/privacy');
    await terms.getByTestId('legal-document').getByRole('heading', { name: '隐私政策' }).waitFor();

    await page.goto(`${herald.url}/register?lang=en`);
    const [privacy] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByTestId('privacy-link').click(),
    ]);
    await privacy.getByTestId('legal-document').getByRole('heading', { name: 'Privacy policy' }).waitFor();
    await privacy
      .getByText('Passwords, API_KEYs and SMS_KEYs are stored only as hashes', { exact: false })
      .waitFor();
  }));
