import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { createTestUser, type TestUser } from '../harness/accounts.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { logIn, menuTexts, waitForShell } from '../harness/console.ts';
import { type MailPeers, startMailPeers } from '../harness/mail-peers.ts';

/**
 * Teammates against a real Herald mailing its invitations to a loopback MX: the owner invites a
 * custom teammate through the form, the invitee accepts through the mailed link and sees only
 * the menus granted; a visitor may look but a save is refused with the read-only message.
 */
let peers: MailPeers;
let herald: Herald;
let browser: Browser;
let owner: TestUser;
const PASSWORD = 'Herald#2026pw';

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

async function inviteLink(email: string): Promise<URL> {
  const { text } = await peers.nextMail(email);
  const link = (text.match(/https?:\/\/[^\s"<>]+/g) ?? [])
    .map((l) => l.replace(/&amp;/g, '&'))
    .find((l) => l.includes('/access/member/invite'));
  assert.ok(link, `no invitation link in: ${text}`);
  return new URL(link);
}

test('a custom teammate is invited through the form, accepts by mail and sees only what was granted', (t) =>
  withPage(browser, t, async (page) => {
    const email = `custom_${process.pid}@example.com`;
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/accountSetting/teammates`);
    await waitForShell(page);
    assert.match((await page.locator('.teammates-count').textContent()) ?? '', /^0 \/ 20$/);
    await page.locator('.teammates-add').click();
    await page.locator('input[name="email"]').fill(email);
    await page.locator('input[name="name"]').fill('Custom Colleague');
    await page.locator('.permission-level-10').getByText('只读').click();
    await page.locator('.permission-level-13').getByText('完整').click();
    await page.locator('.teammate-submit').click();
    const row = page.locator('.teammates-page tr', { hasText: email });
    await row.getByText('待激活').waitFor();

    const link = await inviteLink(email);
    assert.equal(link.origin, herald.url.replace('localhost', '127.0.0.1'));
    await page.context().clearCookies();
    await page.goto(`${herald.url}${link.pathname}${link.search}`);
    await page.locator('.member-invite-intro', { hasText: email }).waitFor();
    await page.locator('input[name="userName"]').fill(`custom_${process.pid}`);
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('input[name="confirmPassword"]').fill(PASSWORD);
    await page.locator('.member-invite-accept').click();
    await waitForShell(page);
    const menu = await menuTexts(page);
    // Email data (read) and email settings (full); no dashboard, sending or teammates.
    assert.deepEqual(menu, ['数据中心', '发送设置', '账户设置', 'API 文档']);

    // The same link again is spent.
    await page.goto(`${herald.url}${link.pathname}${link.search}`);
    await page.locator('.member-invite-invalid').waitFor();
  }));

test('a visitor sees teammates without change buttons and a save is refused as read-only', (t) =>
  withPage(browser, t, async (page) => {
    const email = `visitor_${process.pid}@example.com`;
    const invited = await fetch(`${herald.url}/v3/api/user/member`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email, type: 'visitor' }),
    });
    assert.equal(invited.status, 201);
    const token = (await inviteLink(email)).searchParams.get('token');
    const accepted = await fetch(`${herald.url}/v3/access/member/invite`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        token,
        userName: `visitor_${process.pid}`,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      }),
    });
    assert.equal(accepted.status, 200, await accepted.clone().text());
    const session = ((await accepted.json()) as { data: { token: string } }).data.token;
    await logIn(page.context(), herald, {
      token: session,
      tokenType: 'Bearer',
      userName: `visitor_${process.pid}`,
    });

    await page.goto(`${herald.url}/accountSetting/teammates`);
    await waitForShell(page);
    await page.locator('.teammates-page tr', { hasText: email }).waitFor();
    assert.equal(await page.locator('.teammates-add').count(), 0);

    await page.goto(`${herald.url}/accountSetting/teammates/option`);
    await page.locator('input[name="email"]').fill(`another_${process.pid}@example.com`);
    await page.locator('.member-type-visitor').click();
    await page.locator('.teammate-submit').click();
    await page.locator('.http-toast-error', { hasText: '您只有查看权限' }).waitFor();
  }));
