import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser, Page } from 'playwright-core';
import { createTestUser, type TestUser } from '../harness/accounts.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { cookieMap, logIn, waitForShell } from '../harness/console.ts';

/**
 * The console shell against the real server: the sidebar of each product filtered by the user's
 * permission codes, the Huawei Cloud rule, permission-gated header elements, the collapsible
 * sidebar remembered in a cookie, and the phone layout.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;
let member: TestUser;
let huawei: TestUser;

before(async () => {
  [herald, browser] = await Promise.all([startHerald(), launchBrowser()]);
  // One at a time: each opens its own connection to the server's SQLite file.
  owner = await createTestUser(herald);
  member = await createTestUser(herald, { permissions: [P.BACKEND, P.DASHBOARD, P.EMAIL_SEND] });
  huawei = await createTestUser(herald, { isHuaweiYunUser: true });
});

after(async () => {
  await browser?.close();
  await herald?.stop();
});

const sidebar = (page: Page) => page.getByTestId('sidebar-menu');

/** Top-level entries of the sidebar, in order. */
async function topLevel(page: Page): Promise<string[]> {
  const items = sidebar(page).locator(':scope > li > .ant-menu-submenu-title, :scope > li.ant-menu-item');
  return (await items.allInnerTexts()).map((text) => text.trim());
}

async function openGroup(page: Page, title: string): Promise<string[]> {
  const group = sidebar(page).locator(':scope > li.ant-menu-submenu', { hasText: title });
  if ((await group.getAttribute('class'))?.includes('ant-menu-submenu-open') !== true) {
    await group.locator('.ant-menu-submenu-title').click();
  }
  const list = group.locator('ul.ant-menu-sub');
  await list.waitFor();
  return (await list.locator('li.ant-menu-item').allInnerTexts()).map((text) => text.trim());
}

test('the email menu shows only what a member holds, down to a single screen of an area', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, member);
    await page.goto(`${herald.url}/sendRelative/test`);
    await waitForShell(page);
    assert.deepEqual(await topLevel(page), ['邮件概览', '投递回应', '发送相关', '账户设置', 'API 文档']);
    assert.deepEqual(await openGroup(page, '投递回应'), ['队列状态']);
    assert.deepEqual(await openGroup(page, '账户设置'), ['账户信息', '安全设置']);
    const docs = sidebar(page).getByRole('link', { name: 'API 文档' });
    assert.equal(await docs.getAttribute('target'), '_blank');
    // Without code 7 the message centre bell is not rendered at all.
    assert.equal(await page.getByTestId('message-badge').count(), 0);
  }));

test('the SMS menu is another product; a member without SMS codes sees only shared entries', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, member);
    await page.goto(`${herald.url}/backend/s_dashborad`);
    await waitForShell(page);
    assert.deepEqual(await topLevel(page), ['短信概览', '账户设置', 'API 文档']);

    await logIn(page.context(), herald, owner);
    await page.context().clearCookies({ name: 'accountType' });
    await page.goto(`${herald.url}/s_sendRelative/test`);
    await waitForShell(page);
    // The permissions of the first user stay loaded until logout; this page was a fresh load.
    assert.deepEqual(await topLevel(page), [
      '短信概览',
      '短信数据',
      '投递回应',
      '发送相关',
      '发送设置',
      '账户设置',
      'API 文档',
    ]);
    await page.getByTestId('message-badge').waitFor();
  }));

test('an account owner sees teammates; a Huawei Cloud user does not and is denied the route', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/accountSetting/info`);
    await waitForShell(page);
    assert.ok((await openGroup(page, '账户设置')).includes('团队成员'));

    await logIn(page.context(), herald, huawei);
    await page.goto(`${herald.url}/accountSetting/info`);
    await waitForShell(page);
    const entries = await openGroup(page, '账户设置');
    assert.ok(!entries.includes('团队成员'), entries.join(','));
    assert.ok(entries.includes('财务管理'));
    await page.goto(`${herald.url}/accountSetting/teammates`);
    await page.waitForURL((url) => url.pathname === '/backend/deny');
  }));

test('collapsing the sidebar is remembered in the sidebarStatus cookie', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/data/send`);
    await waitForShell(page);
    await page.getByTestId('sidebar-brand').getByText('邮件控制台').waitFor();
    await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('sidebar-brand').getByText('邮件控制台').waitFor({ state: 'detached' });
    assert.equal((await cookieMap(page.context())).get('sidebarStatus')?.value, '0');

    await page.reload();
    await waitForShell(page);
    assert.equal(await page.getByTestId('sidebar-brand').getByText('邮件控制台').count(), 0);
    await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('sidebar-brand').getByText('邮件控制台').waitFor();
    assert.equal((await cookieMap(page.context())).get('sidebarStatus')?.value, '1');
  }));

test('at phone width the menu lives in a drawer and breadcrumbs follow the screen', (t) =>
  withPage(
    browser,
    t,
    async (page) => {
      await logIn(page.context(), herald, owner);
      await page.goto(`${herald.url}/sendRelative/template/templateOpt?lang=en`);
      await page.getByTestId('backend-shell').waitFor();
      assert.equal(await page.getByTestId('backend-shell').getAttribute('data-device'), 'mobile');
      assert.equal(await sidebar(page).count(), 0);
      const crumbs = await page.getByTestId('breadcrumbs').locator('li').allInnerTexts();
      assert.deepEqual(
        crumbs.map((text) => text.trim()).filter((text) => text && text !== '/'),
        ['Sending', 'Templates', 'Edit template'],
      );

      await page.getByTestId('sidebar-toggle').click();
      await sidebar(page).waitFor();
      await openGroup(page, 'Data centre');
      await sidebar(page).getByText('Delivery time').click();
      await page.waitForURL((url) => url.pathname === '/data/deliveryTime');
      await sidebar(page).waitFor({ state: 'hidden' });
      assert.equal(await page.title(), 'Herald - Delivery time');
    },
    { viewport: { width: 390, height: 800 } },
  ));
