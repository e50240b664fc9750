import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser, Page } from 'playwright-core';
import { linksIn } from '../../server/test/helpers/mail.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { waitForShell } from '../harness/console.ts';
import { IMAGE_CODE_ANSWER, knownImageCodes, solveSlider } from '../harness/human-checks.ts';
import { type MailPeers, startMailPeers } from '../harness/mail-peers.ts';

const run = promisify(execFile);

/**
 * A newcomer's whole journey, clicking only what the screens offer after the first page: sign up,
 * activate from the mail caught at a loopback MX, log in, follow the dashboard guide to add a
 * sending domain, publish the records the screen shows in a loopback DNS server and verify it,
 * create an API_USER (its key shown once), open the integration page from the guide and run its
 * curl sample as shown (with the key where the sample says), see the mail arrive at the MX, its
 * status on the email-status screen and the request on the data screen.
 */
const SENDING_DOMAIN = 'mail.journey.example';
const PASSWORD = 'Journey#2026';

let herald: Herald;
let browser: Browser;
let peers: MailPeers;

before(async () => {
  peers = await startMailPeers(['example.com']);
  [herald, browser] = await Promise.all([
    startHerald({ env: { ...peers.env, HERALD_HOSTNAME: 'herald.test' } }),
    launchBrowser(),
  ]);
});

after(async () => {
  await browser?.close();
  await herald?.stop();
  await peers?.close();
});

const sidebar = (page: Page) => page.getByTestId('sidebar-menu');

/** A screen reached through the sidebar: its group opened if need be, then the entry. */
async function openFromMenu(page: Page, group: string | null, entry: string): Promise<void> {
  if (group) {
    const submenu = sidebar(page).locator(':scope > li.ant-menu-submenu', { hasText: group });
    if ((await submenu.getAttribute('class'))?.includes('ant-menu-submenu-open') !== true) {
      await submenu.locator('.ant-menu-submenu-title').click();
    }
    await submenu.locator('li.ant-menu-item', { hasText: entry }).click();
  } else {
    await sidebar(page).locator(':scope > li.ant-menu-item', { hasText: entry }).click();
  }
}

const text = async (page: Page, selector: string) =>
  ((await page.locator(selector).first().textContent()) ?? '').trim();

test('a newcomer goes from sign-up to a first API mail, its status and its figure, led by the screens', (t) =>
  withPage(browser, t, async (page) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: herald.url });
    const userName = `journey_${process.pid}`;
    const email = `${userName}@example.com`;

    // Sign up: the only address typed.
    await knownImageCodes(page, herald);
    await page.goto(`${herald.url}/register`);
    await page.locator('#userName').fill(userName);
    await page.locator('#email').fill(email);
    await page.locator('#phone').fill(`137${String(process.pid).padStart(8, '0').slice(-8)}`);
    await page.getByTestId('field-userName').getByText('可以使用').waitFor();
    await page.locator('#password').fill(PASSWORD);
    await page.locator('#confirmPassword').fill(PASSWORD);
    await page.getByTestId('agreement').check();
    await page.getByTestId('image-code-image').waitFor();
    await page.locator('#captchaCode').fill(IMAGE_CODE_ANSWER);
    await solveSlider(page, herald);
    await page.getByTestId('register-submit').click();
    await page.waitForURL((url) => url.pathname === '/activate');

    // The activation link, from the mail the loopback MX caught (the user clicks it in their mailbox).
    const { mail } = await peers.nextMail(email);
    const link = linksIn(mail.raw).find((candidate) => candidate.includes('regConfirm'));
    assert.ok(link, 'the activation mail has a link');
    await page.goto(link);
    await page.getByRole('button', { name: '选择产品' }).click();
    await page.getByTestId('product-email').click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.locator('#username').fill(userName);
    await page.locator('#password').fill(PASSWORD);
    await solveSlider(page, herald);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/backend/dashborad');
    await waitForShell(page);

    // The guide leads to the sending domain first.
    const guide = page.locator('.dashboard-guide');
    await guide.locator('.guide-step-domain[data-done="false"]').waitFor();
    await guide.locator('.guide-action-domain').click();
    await page.locator('.domains-page .ant-empty').waitFor();
    await page.locator('.domains-add').first().click();
    await page.locator('input[name="name"]').fill(SENDING_DOMAIN);
    await page.locator('.domain-form-submit').click();
    await page.locator('.domain-config-page .domain-status-unverified').waitFor();
    for (const kind of ['spf', 'dkim', 'mx']) {
      const host = await text(page, `.domain-record-${kind} .record-host`);
      const value = await text(page, `.domain-record-${kind} .record-value`);
      if (kind === 'mx') peers.dns.set(host, 'MX', [{ priority: 10, exchange: value }]);
      else peers.dns.set(host, 'TXT', [value]);
    }
    await page.locator('.domain-verify-now').click();
    await page.locator('.domain-config-page .domain-status-usable').waitFor();

    // Back on the dashboard, a usable domain is set up (DMARC is optional); next, an API_USER.
    await openFromMenu(page, null, '邮件概览');
    await guide.locator('.guide-step-domain[data-done="true"]').waitFor();
    await guide.locator('.guide-action-apiUser.ant-btn-primary').click();
    await page.locator('.api-users-table').waitFor();
    await page.locator('.api-user-add').first().click();
    await page.locator('input[name="name"]').fill('journey_sender');
    await page.locator('.api-user-domain').click();
    await page.locator('.ant-select-item-option', { hasText: SENDING_DOMAIN }).click();
    await page.locator('.api-user-submit').click();
    const dialog = page.locator('.api-key-modal');
    await dialog.waitFor();
    await dialog.locator('.api-key-copy').click();
    const apiKey = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(apiKey, /^[A-Za-z0-9_-]{43}$/);
    await dialog.locator('.api-key-close').click();
    await dialog.waitFor({ state: 'detached' });

    // The integration page, from the guide: its curl sample, run as shown with the key put in.
    await openFromMenu(page, null, '邮件概览');
    await guide.locator('.guide-step-apiUser[data-done="true"]').waitFor();
    await guide.locator('.guide-action-integrate').click();
    await page.locator('.integration-page').waitFor();
    assert.equal(await text(page, '.integration-api-base'), `${herald.url}/apiv2/`);
    assert.equal(await text(page, '.integration-smtp-host'), 'herald.test');
    const sample = await text(page, '.integration-sample-curl .integration-sample-code');
    assert.ok(sample.includes('journey_sender') && sample.includes('YOUR_API_KEY'), sample);
    assert.ok(!(await page.content()).includes(apiKey), 'the page never shows the key');
    const { stdout } = await run('bash', ['-c', sample.replace('YOUR_API_KEY', apiKey)]);
    const answer = JSON.parse(stdout) as { result: boolean; info: { emailIdList: string[] } };
    assert.equal(answer.result, true, stdout);
    const delivered = await peers.nextMail('recipient@example.com', 30_000);
    assert.match(delivered.mail.headers.from?.[0] ?? '', new RegExp(`service@${SENDING_DOMAIN}`));

    // Its fate on the email-status screen, and the request on the data screen.
    await openFromMenu(page, '投递回应', '邮件状态');
    const row = page.locator('.email-status-table tr', { hasText: 'recipient@example.com' });
    await row.waitFor();
    const deadline = Date.now() + 30_000;
    while (!(await row.locator('.email-status-delivered').count()) && Date.now() < deadline) {
      await page.locator('.email-status-search').click();
      await page.waitForTimeout(500);
    }
    await row.locator('.email-status-delivered').waitFor();

    await openFromMenu(page, '数据中心', '发送数据');
    const totals = page.locator('.send-totals');
    const until = Date.now() + 30_000;
    while (!/请求数\s*1/.test((await totals.textContent().catch(() => '')) ?? '') && Date.now() < until) {
      await page.reload();
      await page.waitForTimeout(1000);
    }
    assert.match((await totals.textContent()) ?? '', /请求数\s*1/);
  }));
