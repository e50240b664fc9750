import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { createTestUser, type TestUser } from '../harness/accounts.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { cookieMap, logIn, waitForShell } from '../harness/console.ts';

/**
 * Client state and storage (console-spec §1, §3, §4): the markers stored once the user is known,
 * logout clearing the browser and revoking the token on the server, the marketing-source
 * cookies, and the old-browser banner.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;

before(async () => {
  [herald, browser] = await Promise.all([startHerald(), launchBrowser()]);
  owner = await createTestUser(herald, { userName: 'session_owner' });
});

after(async () => {
  await browser?.close();
  await herald?.stop();
});

const DAY_S = 86_400;

async function userInfoStatus(token: string): Promise<number> {
  const response = await fetch(`${herald.url}/v3/api/userInfo`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await response.arrayBuffer();
  return response.status;
}

test('once the member info loads, the account type and the username and project markers are stored', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/data/send`);
    await waitForShell(page);
    const cookies = await cookieMap(page.context());
    assert.equal(cookies.get('accountType')?.value, 'main');
    assert.equal(cookies.get('userName')?.value, 'session_owner');
    assert.equal(cookies.get('project')?.value, 'SC');
  }));

test('logout clears the cookies, session storage and user, and revokes the token', (t) =>
  withPage(browser, t, async (page) => {
    const user = await createTestUser(herald);
    await logIn(page.context(), herald, user);
    await page.context().addCookies([{ name: 'protectVerify', value: '1', url: herald.url }]);
    await page.goto(`${herald.url}/data/send`);
    await waitForShell(page);
    await page.evaluate(() => sessionStorage.setItem('draft', 'x'));
    assert.equal(await userInfoStatus(user.token), 200);

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await page.waitForURL((url) => url.pathname === '/login');

    const cookies = await cookieMap(page.context());
    for (const name of ['token', 'tokenType', 'accountType', 'protectVerify', 'userName']) {
      assert.equal(cookies.has(name), false, `${name} is still set`);
    }
    assert.equal(cookies.get('language')?.value, 'zh-cn', 'the language choice outlives the session');
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    assert.equal(await userInfoStatus(user.token), 401);

    await page.goto(`${herald.url}/data/send`);
    await page.waitForURL((url) => url.pathname === '/login');
  }));

test('marketing parameters become sc_ cookies; the landing source lasts 90 days, "none" 1 day', (t) =>
  withPage(browser, t, async (page) => {
    await page.goto(`${herald.url}/?source=baidu&plan=spring&kw=email%20api`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    let cookies = await cookieMap(page.context());
    assert.equal(cookies.get('sc_source')?.value, 'baidu');
    assert.equal(cookies.get('sc_plan')?.value, 'spring');
    assert.equal(cookies.get('sc_search_term')?.value, 'email api');
    assert.equal(cookies.has('kw'), false);
    const now = Date.now() / 1000;
    const none = cookies.get('sc_referrer');
    assert.equal(none?.value, 'none');
    assert.ok(Math.abs((none?.expires ?? 0) - now - DAY_S) < 120, 'a "none" source lasts one day');
    assert.ok(Math.abs((cookies.get('sc_source')?.expires ?? 0) - now - 90 * DAY_S) < 120);

    await page.goto(`${herald.url}/prices`, { referer: 'https://search.example.org/q?s=herald' });
    await page.getByTestId('placeholder-page').waitFor();
    cookies = await cookieMap(page.context());
    const referrer = cookies.get('sc_referrer');
    assert.equal(referrer?.value, 'search.example.org');
    assert.ok(Math.abs((referrer?.expires ?? 0) - now - 90 * DAY_S) < 120, 'a real source lasts 90 days');
  }));

const OLD_BROWSERS = {
  'Internet Explorer 8': 'Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0)',
  'Chrome 23':
    'Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.11 (KHTML, like Gecko) Chrome/23.0.1271.97 Safari/537.11',
  'Firefox 28': 'Mozilla/5.0 (Windows NT 6.1; rv:28.0) Gecko/20100101 Firefox/28.0',
  'Safari 6':
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_8_2) AppleWebKit/536.26.17 (KHTML, like Gecko) Version/6.0.2 Safari/536.26.17',
};
const CURRENT_BROWSERS = {
  'Internet Explorer 9': 'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)',
  'Chrome 24':
    'Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.17 (KHTML, like Gecko) Chrome/24.0.1312.57 Safari/537.17',
  'Safari 7':
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_9) AppleWebKit/537.71 (KHTML, like Gecko) Version/7.0 Safari/537.71',
};

test('the old-browser banner shows for IE ≤ 8, Chrome ≤ 23, Firefox ≤ 28, Safari ≤ 6 and stays dismissed', async () => {
  for (const [name, userAgent] of Object.entries(OLD_BROWSERS)) {
    const context = await browser.newContext({ userAgent });
    try {
      const page = await context.newPage();
      await page.goto(`${herald.url}/`);
      await page.locator('#browser-tip').getByText('您的浏览器版本过低').waitFor();
      if (name === 'Internet Explorer 8') {
        await page.locator('#browser-tip-dismiss').click();
        await page.locator('#browser-tip').waitFor({ state: 'detached' });
        await page.reload();
        await page.getByRole('heading', { level: 1 }).waitFor();
        assert.equal(await page.locator('#browser-tip').count(), 0, 'dismissed banner came back');
        assert.equal(await page.evaluate(() => localStorage.getItem('browserTipDismissed')), '1');
      }
    } finally {
      await context.close();
    }
  }
  for (const [name, userAgent] of Object.entries(CURRENT_BROWSERS)) {
    const context = await browser.newContext({ userAgent });
    try {
      const page = await context.newPage();
      await page.goto(`${herald.url}/?lang=en`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      assert.equal(await page.locator('#browser-tip').count(), 0, `${name} got the banner`);
    } finally {
      await context.close();
    }
  }
});

test('the banner speaks English when the language is English', async () => {
  const context = await browser.newContext({ userAgent: OLD_BROWSERS['Firefox 28'] });
  try {
    const page = await context.newPage();
    await page.goto(`${herald.url}/?lang=en`);
    await page.locator('#browser-tip').getByText('Your browser is out of date').waitFor();
    await page.locator('#browser-tip-dismiss').getByText('Dismiss').waitFor();
  } finally {
    await context.close();
  }
});
