import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser, Page } from 'playwright-core';
import { createTestUser, type TestUser } from '../harness/accounts.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { logIn, menuTexts, waitForShell } from '../harness/console.ts';
import { type MailPeers, startMailPeers } from '../harness/mail-peers.ts';

/**
 * What teammates may not do, as the console shows it: a custom teammate sees only the menus it
 * was granted, a route it lacks lands on the no-access page, and a change it may not make is
 * answered 403 with the error toast; a visitor's every save is refused as read-only (403), and
 * nothing changed on the server. Teammates are invited by mail (caught at a loopback MX) and
 * join through the link's token.
 */
let peers: MailPeers;
let herald: Herald;
let browser: Browser;
let owner: TestUser;
const PASSWORD = 'Member#2026pw';

before(async () => {
  peers = await startMailPeers();
  [herald, browser] = await Promise.all([startHerald({ env: peers.env }), launchBrowser()]);
  owner = await createTestUser(herald);
});

after(async () => {
  await browser?.close();
  await herald?.stop();
  await peers?.close();
});

const ownerApi = (method: string, path: string, body?: unknown) =>
  fetch(`${herald.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** Invites a teammate as the owner and joins with the token of the mailed link. */
async function joinedMember(name: string, access: Record<string, unknown>): Promise<TestUser> {
  const email = `${name}@example.com`;
  const invited = await ownerApi('POST', '/v3/api/user/member', { email, ...access });
  assert.equal(invited.status, 201, await invited.clone().text());
  const { text } = await peers.nextMail(email);
  const token = /\/access\/member\/invite\?token=([\w-]+)/.exec(text)?.[1];
  assert.ok(token, `no invitation link in: ${text}`);
  const accepted = await fetch(`${herald.url}/v3/access/member/invite`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, userName: name, password: PASSWORD, confirmPassword: PASSWORD }),
  });
  assert.equal(accepted.status, 200, await accepted.clone().text());
  const session = ((await accepted.json()) as { data: { token: string } }).data.token;
  return { token: session, tokenType: 'Bearer', userName: name };
}

/** Types a whitelist and saves it; answers the status of the save call. */
async function saveWhitelist(page: Page, ips: string): Promise<number> {
  await page.goto(`${herald.url}/accountSetting/security`);
  await waitForShell(page);
  await page.locator('.ip-whitelist-card textarea').fill(ips);
  const [response] = await Promise.all([
    page.waitForResponse((res) => res.url().endsWith('/v3/api/user/saveIPWhitelist')),
    page.locator('.ip-whitelist-save').click(),
  ]);
  return response.status();
}

const whitelist = async () =>
  ((await (await ownerApi('GET', '/v3/api/user/ipWhites')).json()) as { data: { ips: string[] } }).data.ips;

test('a custom teammate sees only the granted menus, and a forbidden change is a 403 with its toast', (t) =>
  withPage(browser, t, async (page) => {
    const member = await joinedMember(`custom_${process.pid}`, {
      type: 'custom',
      levels: { [P.EMAIL_DATA]: 'read', [P.EMAIL_SETTINGS]: 'full' },
    });
    await logIn(page.context(), herald, member);
    await page.goto(`${herald.url}/accountSetting/info`);
    await waitForShell(page);
    // Email data (read) and email settings (full); under account settings only the user's own
    // screens: no dashboard, sending or teammates.
    assert.deepEqual(await menuTexts(page), [
      '数据中心',
      '发送设置',
      '账户设置',
      '账户信息',
      '安全设置',
      'API 文档',
    ]);

    // A screen under a code it lacks (teammates, code 2) is the no-access page.
    await page.goto(`${herald.url}/accountSetting/teammates`);
    await page.waitForURL((url) => url.pathname === '/backend/deny');

    // The IP whitelist belongs to those who manage the team: the server refuses, the toast says so.
    const status = await saveWhitelist(page, '203.0.113.7');
    assert.equal(status, 403);
    await page.locator('.http-toast-error', { hasText: '权限不足，请联系团队管理员' }).waitFor();
    assert.equal(await page.locator('.verify-identity-modal').count(), 0, 'no verification asked first');
    assert.deepEqual(await whitelist(), []);
  }));

test('a visitor can look but every save is refused as read-only', (t) =>
  withPage(browser, t, async (page) => {
    const member = await joinedMember(`visitor_${process.pid}`, { type: 'visitor' });
    await logIn(page.context(), herald, member);

    const status = await saveWhitelist(page, '203.0.113.8');
    assert.equal(status, 403);
    await page.locator('.http-toast-error', { hasText: '您只有查看权限' }).first().waitFor();

    const [switched] = await Promise.all([
      page.waitForResponse((res) => res.url().endsWith('/v3/api/user/ipWhites/open')),
      page.locator('.ip-whitelist-switch').click(),
    ]);
    assert.equal(switched.status(), 403);

    // The account details are the owner's: shown, but the visitor's forms are locked.
    await page.goto(`${herald.url}/accountSetting/info`);
    await page.locator('.account-details-card').getByText('只有主账号可以修改账号资料。').waitFor();
    assert.equal(await page.locator('.save-exmail').isDisabled(), true);

    // A teammate save through its form: refused with the read-only toast.
    await page.goto(`${herald.url}/accountSetting/teammates/option`);
    await page.locator('input[name="email"]').fill(`another_${process.pid}@example.com`);
    await page.locator('.member-type-visitor').click();
    const [invite] = await Promise.all([
      page.waitForResponse((res) => res.url().endsWith('/v3/api/user/member')),
      page.locator('.teammate-submit').click(),
    ]);
    assert.equal(invite.status(), 403);

    const ips = await whitelist();
    assert.deepEqual(ips, []);
    const setting = (await (await ownerApi('GET', '/v3/api/user/ipWhites')).json()) as {
      data: { enabled: boolean };
    };
    assert.equal(setting.data.enabled, false);
  }));
