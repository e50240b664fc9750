import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { AccountsService } from '../../server/src/core/accounts/accounts.service.ts';
import { hashPassword } from '../../server/src/core/auth/password.ts';
import { openDatabase } from '../../server/src/db/database.ts';
import {
  startWechatProvider,
  type WechatProvider,
  type WechatUser,
} from '../../server/test/wechat/wechat-provider.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { waitForShell } from '../harness/console.ts';
import { IMAGE_CODE_ANSWER, knownImageCodes } from '../harness/human-checks.ts';
import { type MailPeers, startMailPeers } from '../harness/mail-peers.ts';

/**
 * WeChat quick login in the browser against a loopback OAuth2 provider standing in for WeChat
 * (server/test/wechat/wechat-provider.ts): /login's WeChat link goes through /wxLoginCheck to the
 * provider's QR page, which "is scanned" and sends the browser back through Herald's callback. A
 * WeChat no user has lands on /wxbind, whose password login binds it; the next scan of the same
 * WeChat logs straight in. A declined scan ends on /wxLoginCheck with the reason.
 */
let peers: MailPeers;
let provider: WechatProvider;
let herald: Herald;
let browser: Browser;
/** Herald's public URL (127.0.0.1): the callback comes back there, so the flow runs on it. */
let base: string;
const PASSWORD = 'Wechat#2026ok';

before(async () => {
  [peers, provider] = await Promise.all([startMailPeers(), startWechatProvider()]);
  base = peers.env.HERALD_PUBLIC_URL ?? '';
  [herald, browser] = await Promise.all([
    startHerald({
      env: {
        ...peers.env,
        HERALD_WECHAT_BASE_URL: provider.baseUrl,
        HERALD_WECHAT_APP_ID: provider.appId,
        HERALD_WECHAT_APP_SECRET: provider.appSecret,
      },
    }),
    launchBrowser(),
  ]);
});

after(async () => {
  await browser?.close();
  await herald?.stop();
  await provider?.close();
  await peers?.close();
});

async function withDatabase<T>(run: (database: ReturnType<typeof openDatabase>) => Promise<T>): Promise<T> {
  const database = openDatabase({ kind: 'sqlite', file: path.join(herald.dataDir, 'herald.db') });
  try {
    return await run(database);
  } finally {
    await database.close();
  }
}

const scanner = (n: number): WechatUser => ({
  openid: `o_e2e_${process.pid}_${n}`,
  unionid: `u_e2e_${process.pid}_${n}`,
  nickname: `Scanner ${n}`,
});

test('an unbound WeChat binds through /wxbind, and the next scan logs straight in', (t) =>
  withPage(browser, t, async (page) => {
    const username = `wx_${process.pid}`;
    const ctx = await withDatabase(async (database) =>
      new AccountsService(database).createWithOwner({
        username,
        email: `${username}@example.com`,
        passwordHash: await hashPassword(PASSWORD),
        status: 'active',
      }),
    );
    const who = scanner(1);
    await knownImageCodes(page, herald);
    provider.nextScan(who);

    await page.goto(`${base}/login`);
    await page.getByTestId('wechat-login-link').click();
    await page.waitForURL((url) => url.pathname === '/wxbind' && url.searchParams.has('state'));
    await page
      .getByTestId('wechat-bind-page')
      .getByText('该微信尚未绑定 Herald 账号', { exact: false })
      .waitFor();
    assert.equal(provider.exchanges.length, 1, 'Herald exchanged the code once');

    await page.locator('#username').fill(username);
    await page.locator('#password').fill('Wrong#2026');
    await page.locator('#captchaCode').fill(IMAGE_CODE_ANSWER);
    await page.getByTestId('wechat-bind-submit').click();
    await page.getByTestId('form-error').getByText('用户名或密码错误').waitFor();

    await page.locator('#password').fill(PASSWORD);
    await page.getByTestId('image-code-image').waitFor();
    await page.locator('#captchaCode').fill(IMAGE_CODE_ANSWER);
    await page.getByTestId('wechat-bind-submit').click();
    await waitForShell(page);

    const binding = await withDatabase((database) =>
      database.db
        .selectFrom('wechat_bindings')
        .select(['user_id', 'openid'])
        .where('account_id', '=', ctx.accountId)
        .executeTakeFirst(),
    );
    assert.deepEqual(binding, { user_id: ctx.userId, openid: who.openid });

    // Logged out, the same WeChat scans again: /wxLoginCheck collects the session.
    await page.context().clearCookies();
    provider.nextScan(who);
    await page.goto(`${base}/login`);
    await page.getByTestId('wechat-login-link').click();
    await waitForShell(page);
    assert.equal(new URL(page.url()).pathname.startsWith('/wx'), false);
  }));

test('a declined scan ends on /wxLoginCheck with the reason, in the page language', (t) =>
  withPage(browser, t, async (page) => {
    provider.nextScan(null);
    await page.goto(`${base}/wxLoginCheck`);
    await page.waitForURL((url) => url.pathname === '/wxLoginCheck' && url.searchParams.has('state'));
    await page.getByTestId('wechat-login-failed').getByText('微信授权已取消，请重新扫码').waitFor();

    // Scanning again from the failure screen starts a new QR flow.
    const who = scanner(2);
    provider.nextScan(who);
    await page.getByTestId('wechat-retry').click();
    await page.waitForURL((url) => url.pathname === '/wxbind');
  }));
