import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { totpCode } from '../../server/src/core/auth/totp.ts';
import { createTestUser, type TestUser } from '../harness/accounts.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { logIn, waitForShell } from '../harness/console.ts';
import { codeIn, type MailPeers, startMailPeers } from '../harness/mail-peers.ts';

/**
 * The security screen against a real Herald that mails its verification codes to a loopback MX:
 * binding the Google authenticator through the verification dialog, login verification by it,
 * and the IP whitelist editor's per-line errors in both languages.
 */
let peers: MailPeers;
let herald: Herald;
let browser: Browser;
let owner: TestUser;

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

const api = (path: string, user: TestUser) =>
  fetch(`${herald.url}${path}`, { headers: { authorization: `Bearer ${user.token}` } }).then(
    (res) => res.json() as Promise<{ data: Record<string, unknown> }>,
  );

test('the owner binds Google Authenticator after the verification dialog, and sets login verification to the authenticator', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/accountSetting/security`);
    await waitForShell(page);
    await page.locator('.google-auth-bind').click();

    const dialog = page.locator('.verify-identity-modal');
    await dialog.waitFor();
    await dialog.locator('.verify-send-code').click();
    const { text } = await peers.nextMail(`${owner.userName}@example.com`);
    await dialog.locator('input[name="verifyCode"]').fill(codeIn(text));
    await dialog.getByRole('button', { name: '验证' }).click();

    const bindDialog = page.locator('.google-auth-modal');
    await bindDialog.locator('img.google-qr').waitFor();
    assert.match(
      (await bindDialog.locator('img.google-qr').getAttribute('src')) ?? '',
      /^data:image\/png;base64,/,
    );
    const secret = ((await bindDialog.locator('.google-secret').textContent()) ?? '').trim();
    await bindDialog.locator('input[name="googleCode"]').fill(totpCode(secret, Date.now()));
    await bindDialog.getByRole('button', { name: /OK|确\s*定/ }).click();
    await page.locator('.google-auth-state', { hasText: '已绑定' }).waitFor();

    await page.locator('.login-verify-card').getByText('每次登录验证').click();
    await page.locator('.login-verify-way').click();
    await page.locator('.ant-select-item-option', { hasText: '谷歌身份验证器' }).click();
    await page.locator('.login-verify-save').click();
    await page.locator('.http-toast-success').first().waitFor();

    const setting = await api('/v3/api/user/config/securitySetting', owner);
    assert.equal(setting.data.googleAuthBound, true);
    assert.equal(setting.data.loginVerify, 'always');
    assert.equal(setting.data.loginVerifyWay, 'google');
  }));

for (const [lang, expected] of [
  ['zh-cn', /第 2 行：.*内网/],
  ['en', /Line 2: .*internal/i],
] as const) {
  test(`the IP whitelist editor marks an internal address by its line (${lang})`, (t) =>
    withPage(browser, t, async (page) => {
      await logIn(page.context(), herald, owner);
      await page.goto(`${herald.url}/accountSetting/security?lang=${lang}`);
      await waitForShell(page);
      await page.locator('textarea[name="ips"]').fill('203.0.113.7\n192.168.1.10');
      await page.locator('.ip-whitelist-save').click();
      const errors = page.locator('.ip-whitelist-errors');
      await errors.waitFor();
      assert.match((await errors.textContent()) ?? '', expected);
      // Nothing was saved: the shared schema refused it before any call.
      const whitelist = await api('/v3/api/user/ipWhites', owner);
      assert.deepEqual(whitelist.data.ips, []);
    }));
}
