import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { launchBrowser, withPage } from '../harness/browser.ts';

/** The built console is served by the real server, boots, routes and speaks both languages. */
let herald: Herald;
let browser: Browser;

before(async () => {
  [herald, browser] = await Promise.all([startHerald(), launchBrowser()]);
});

after(async () => {
  await browser?.close();
  await herald?.stop();
});

test('home page is Chinese by default, titled with the product prefix', (t) =>
  withPage(browser, t, async (page) => {
    await page.goto(`${herald.url}/`);
    await page.getByRole('heading', { name: 'Herald — 邮件与短信发送平台' }).waitFor();
    await page.getByRole('link', { name: '登录' }).waitFor();
    assert.equal(await page.title(), 'Herald - 首页');
    assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');
  }));

test('?lang=en shows English and is remembered', (t) =>
  withPage(browser, t, async (page) => {
    await page.goto(`${herald.url}/?lang=en`);
    await page.getByRole('heading', { name: 'Herald — email and SMS sending platform' }).waitFor();
    assert.equal(await page.title(), 'Herald - Home');

    await page.goto(`${herald.url}/home`);
    await page.getByRole('link', { name: 'Log in' }).waitFor();
  }));

test('the language switcher changes the language and survives a reload', (t) =>
  withPage(browser, t, async (page) => {
    await page.goto(`${herald.url}/`);
    await page.getByText('English', { exact: true }).click();
    await page.getByRole('heading', { name: 'Herald — email and SMS sending platform' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Herald — email and SMS sending platform' }).waitFor();
    await page.getByText('中文', { exact: true }).click();
    await page.getByRole('heading', { name: 'Herald — 邮件与短信发送平台' }).waitFor();
  }));

test('the health badge reaches the operational state', (t) =>
  withPage(browser, t, async (page) => {
    await page.goto(`${herald.url}/`);
    const badge = page.locator('[data-testid="health-badge"][data-state="ok"]');
    await badge.waitFor();
    assert.equal((await badge.textContent())?.trim(), '服务运行正常');

    await page.goto(`${herald.url}/?lang=en`);
    await page.getByText('All systems operational').waitFor();
  }));

test('an unknown path ends at /404 with the not-found text', (t) =>
  withPage(browser, t, async (page) => {
    await page.goto(`${herald.url}/some/unknown/path`);
    await page.waitForURL((url) => url.pathname === '/404');
    await page.getByText('您访问的链接不存在').waitFor();
    assert.equal(await page.title(), 'Herald - 页面不存在');

    await page.getByRole('link', { name: '返回首页' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'Herald — 邮件与短信发送平台' }).waitFor();
  }));

test('/v3 redirects to /home', (t) =>
  withPage(browser, t, async (page) => {
    await page.goto(`${herald.url}/v3`);
    await page.waitForURL((url) => url.pathname === '/home');
    await page.getByRole('heading', { name: 'Herald — 邮件与短信发送平台' }).waitFor();
  }));
