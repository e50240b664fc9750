import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { createTestUser, type TestUser } from '../harness/accounts.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { cookieMap, logIn, waitForShell } from '../harness/console.ts';

/**
 * The route guard (console-spec §4) against the real server: login and permission redirects,
 * redirects of the route table, language and theme from the route, the console data fetch,
 * the idle notice and the chunk-load failure screen.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;
let dataOnly: TestUser;

before(async () => {
  [herald, browser] = await Promise.all([startHerald(), launchBrowser()]);
  // One at a time: each opens its own connection to the server's SQLite file.
  owner = await createTestUser(herald);
  dataOnly = await createTestUser(herald, { permissions: [P.BACKEND, P.DASHBOARD, P.EMAIL_DATA] });
});

after(async () => {
  await browser?.close();
  await herald?.stop();
});

test('without a token a backend route sends the visitor to /login', (t) =>
  withPage(browser, t, async (page) => {
    await page.goto(`${herald.url}/data/send`);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByTestId('login-page').waitFor();
    assert.equal(await page.title(), 'Herald - 登录');
  }));

test('a user lacking the route code lands on /backend/deny; a held code opens the screen', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, dataOnly);
    await page.goto(`${herald.url}/sendSetting/domain`);
    await page.waitForURL((url) => url.pathname === '/backend/deny');
    await page.getByText('您没有该功能的访问权限').waitFor();
    await page.getByText('如需使用，请联系团队管理员为您开通。').waitFor();

    await page.goto(`${herald.url}/data/send`);
    await waitForShell(page);
    assert.equal(await page.title(), 'Herald - 发送数据');
    assert.equal(new URL(page.url()).pathname, '/data/send', 'a held code opens the screen');
    await page.goto(`${herald.url}/data/inboxInsight`);
    await waitForShell(page);
    assert.equal(await page.title(), 'Herald - 收件箱洞察');
    await page.getByTestId('placeholder-page').getByText('暂未开放').waitFor();
  }));

test('table redirects: unknown paths → /404, /v3 → /home, /user → /login, an area → its first screen', (t) =>
  withPage(browser, t, async (page) => {
    await page.goto(`${herald.url}/backend/no-such-screen`);
    await page.waitForURL((url) => url.pathname === '/404');
    await page.goto(`${herald.url}/v3`);
    await page.waitForURL((url) => url.pathname === '/home');
    await page.goto(`${herald.url}/user`);
    await page.waitForURL((url) => url.pathname === '/login');
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendRelative`);
    await page.waitForURL((url) => url.pathname === '/sendRelative/test');
  }));

test('?lang=en switches the console to English and is remembered in storage and the cookie', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/data/send?lang=en`);
    await waitForShell(page);
    assert.equal(await page.title(), 'Herald - Sending data');
    await page.getByRole('button', { name: 'Balance' }).or(page.getByTestId('balance')).waitFor();

    await page.goto(`${herald.url}/sendRelative/test`);
    await waitForShell(page);
    assert.equal(await page.title(), 'Herald - Test send');
    assert.equal((await cookieMap(page.context())).get('language')?.value, 'en');
    assert.equal(await page.evaluate(() => localStorage.getItem('lang')), 'en');
    assert.equal(await page.locator('html').getAttribute('lang'), 'en');
  }));

test('the theme follows the route: SMS areas show the SMS console, email areas the email one', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    const balanceCall = page.waitForRequest((request) =>
      request.url().endsWith('/v3/api/userInfo/userBalance'),
    );
    await page.goto(`${herald.url}/s_data/s_send`);
    await waitForShell(page);
    await balanceCall;
    const shell = page.getByTestId('backend-shell');
    assert.equal(await shell.getAttribute('data-theme'), 'sms');
    await page.getByTestId('sidebar-brand').getByText('短信控制台').waitFor();
    await page.getByTestId('sidebar-menu').getByText('短信数据').waitFor();
    assert.equal(await page.locator('[data-logo="sms"]').count(), 1);
    await page.getByTestId('balance').getByText('¥0.00').waitFor();

    // An account page names no theme: the SMS theme stays.
    await page.goto(`${herald.url}/accountSetting/info`);
    await waitForShell(page);
    assert.equal(await shell.getAttribute('data-theme'), 'sms');

    // The header switch leads to the email console.
    await page.getByTestId('theme-switch').getByText('邮件').click();
    await page.waitForURL((url) => url.pathname === '/backend/dashborad');
    await page.getByTestId('sidebar-brand').getByText('邮件控制台').waitFor();
    assert.equal(await shell.getAttribute('data-theme'), 'email');
    await page.getByTestId('sidebar-menu').getByText('数据中心').waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('theme')), 'email');
  }));

test('the idle notice appears when the (shortened) idle timer fires', (t) =>
  withPage(browser, t, async (page) => {
    await page.context().addInitScript(() => localStorage.setItem('herald:idleMs', '1500'));
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/data/send`);
    await waitForShell(page);
    await page.getByText('您在页面停留时间过长，请刷新').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: '刷新页面' }).waitFor();
  }));

test('a screen chunk that fails to load shows the reload screen', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.route(/\/assets\/SendDataPage-[\w-]+\.js$/, (route) => route.abort());
    await page.goto(`${herald.url}/data/dataView`);
    await waitForShell(page);
    await page.getByTestId('sidebar-menu').getByText('发送数据').click();
    await page.getByTestId('chunk-load-failed').waitFor();
    await page.getByText('页面资源加载失败').waitFor();
    await page.getByRole('button', { name: '刷新页面' }).waitFor();
  }));
