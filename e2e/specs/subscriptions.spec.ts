import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { postEntry } from '../../server/src/core/ledger/ledger.repo.ts';
import { linksIn } from '../../server/test/helpers/mail.ts';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, toasts, waitForShell } from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';
import { IMAGE_CODE_ANSWER, knownImageCodes } from '../harness/human-checks.ts';
import { type MailPeers, startMailPeers } from '../harness/mail-peers.ts';
import { type ApiCredentials, writeSendingSetup } from '../harness/sending.ts';

/**
 * Subscriptions end to end against a real Herald (its worker delivers the confirmation mail to
 * the loopback MX): a paid owner with a verified sending domain, a batch API_USER and an address
 * list creates a subscription with confirmation on in the console (the form's rules, a wrong
 * API_KEY); the snippet from its code page goes into a page of a customer's site, served by a
 * tiny local HTTP server on another host name; Chromium fills the embedded form there (image code
 * included), the confirmation mail arrives, its link is opened, and the address shows among the
 * list's members. The sample page /preview switches the display modes with the theme colour.
 * Deleting the subscription, after a confirmation saying its page stops, stops the snippet.
 */
const SENDING_DOMAIN = 'mail.e2e-subscribe.example';
const READERS = 'readers.example';
const SUBSCRIBER = `ann@${READERS}`;
const LIST_NAME = '读者俱乐部';

let peers: MailPeers;
let herald: Herald;
let browser: Browser;
let owner: TestUser;
let sender: ApiCredentials;
let site: Server;
let siteHtml = '';
let listId = 0;

before(async () => {
  peers = await startMailPeers(['example.com', READERS]);
  ({ herald, browser, owner } = await startConsoleTestbed(peers.env));
  sender = await writeSendingSetup(herald, owner, {
    domain: SENDING_DOMAIN,
    apiUser: 'e2e_sub_batch',
    emailType: 'batch',
  });
  await writeSendingSetup(herald, owner, {
    domain: 'mail2.e2e-subscribe.example',
    apiUser: 'e2e_sub_trigger',
    emailType: 'trigger',
  });
  await withHeraldDatabase(herald, async ({ db }) => {
    const user = await db
      .selectFrom('users')
      .select('account_id')
      .where('username', '=', owner.userName)
      .executeTakeFirstOrThrow();
    await db.updateTable('accounts').set({ plan: 'paid' }).where('id', '=', user.account_id).execute();
    // A paid account sends only with money on it (the confirmation mails are charged).
    await postEntry(db, {
      accountId: Number(user.account_id),
      kind: 'recharge',
      amountFen: 10_000,
      reason: 'e2e',
      idempotencyKey: `e2e-subscriptions-${user.account_id}`,
      at: Date.now(),
    });
  });
  const made = await fetch(`${herald.url}/v3/api/mail/mailingLists`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: LIST_NAME, prefix: 'readers_club', description: '' }),
  });
  assert.equal(made.status, 201, await made.clone().text());
  listId = ((await made.json()) as { data: { id: number } }).data.id;
  // A customer's site: any page holding the snippet, on a host other than Herald's.
  site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(siteHtml);
  });
  await new Promise<void>((resolve) => site.listen(0, resolve));
});

after(async () => {
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
  await stopConsoleTestbed({ browser, herald }, peers);
});

const siteUrl = () => `http://localhost:${(site.address() as AddressInfo).port}/`;

test('a subscription made in the console fills its list through the snippet on a customer page, with double opt-in', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendRelative/subscription`);
    await waitForShell(page);
    await page.locator('.subscriptions-empty').getByText('还没有订阅').waitFor();
    await page.locator('.subscriptions-empty .subscription-add').click();
    await page.waitForURL(/\/sendRelative\/subscription\/add$/);

    // Every field is checked by the shared schema before anything is sent.
    await page.locator('.subscription-save').click();
    await page.getByText('请输入订阅名称').waitFor();
    await page.getByText('请选择API_USER').waitFor();
    await page.getByText('请选择地址列表').waitFor();

    await page.locator('input[name="subscriptionName"]').fill('读者俱乐部订阅');
    await page.locator('input[name="subscriptionLogoUrl"]').fill('ftp://logo.example/a.png');
    await page.getByText('请输入以http://或https://开头的Logo地址').waitFor();
    await page.locator('input[name="subscriptionLogoUrl"]').fill('https://logo.example/a.png');
    // Only batch API_USERs are offered: confirmation mails go out as one.
    await page.locator('.subscription-api-user').click();
    await page.locator('.ant-select-item-option', { hasText: 'e2e_sub_batch' }).waitFor();
    assert.equal(await page.locator('.ant-select-item-option', { hasText: 'e2e_sub_trigger' }).count(), 0);
    await page.locator('.ant-select-item-option', { hasText: 'e2e_sub_batch' }).click();
    await page.getByText(`须是${SENDING_DOMAIN}下的地址`).waitFor();
    await page.locator('input[name="subscriptionApiKey"]').fill('not-the-key');
    await page.locator('.subscription-list-select').click();
    await page.locator('.ant-select-item-option', { hasText: LIST_NAME }).click();
    await page.locator('input[name="subscriptionSubject"]').fill('请确认订阅读者俱乐部');
    await page.locator('input[name="subscriptionFromName"]').fill('读者俱乐部');
    await page.locator('input[name="subscriptionFromAddress"]').fill(`club@${SENDING_DOMAIN}`);
    assert.equal(await page.locator('.subscription-confirm').getAttribute('aria-checked'), 'true');
    await page.locator('.subscription-save').click();
    await page.locator('.ant-form-item-explain-error', { hasText: 'API_USER或API_KEY错误' }).waitFor();

    await page.locator('input[name="subscriptionApiKey"]').fill(sender.apiKey);
    await page.locator('.subscription-save').click();
    await toasts(page, 'success').filter({ hasText: '操作成功' }).first().waitFor();

    // A new subscription opens on its code.
    await page.waitForURL(/\/sendRelative\/subscription\/config\?id=\d+$/);
    const snippet = ((await page.locator('.subscription-snippet').textContent()) ?? '').trim();
    assert.match(
      snippet,
      new RegExp(
        `^<script src="${herald.url.replace(/\./g, '\\.')}/subscribe/embed\\.js\\?id=[\\w-]+" async></script>$`,
      ),
    );
    const publicId = decodeURIComponent(/id=([^"]+)"/.exec(snippet)?.[1] ?? '');
    await page
      .locator('.subscription-public-link')
      .getByText(`${herald.url}/subscriptionInvite?id=${publicId}`)
      .waitFor();
    await page.locator('.subscription-preview-frame').waitFor();

    await page.goto(`${herald.url}/sendRelative/subscription`);
    const row = page.locator('.subscriptions-table tr[data-subscription="读者俱乐部订阅"]');
    await row.locator('.subscription-list a', { hasText: LIST_NAME }).waitFor();
    await row.locator('.subscription-list', { hasText: 'readers_club@' }).waitFor();
    await row.getByText('嵌入').waitFor();
    await row.locator('.subscription-confirm-on', { hasText: '需要确认' }).waitFor();

    // The customer's page with the snippet; the visitor fills the embedded form.
    siteHtml = `<!doctype html><html><head><meta charset="utf-8"><title>Acme</title></head><body><h1>Acme books</h1>${snippet}</body></html>`;
    const visitor = await page.context().newPage();
    await knownImageCodes(visitor, herald);
    await visitor.goto(siteUrl());
    const form = visitor.frameLocator('iframe.herald-subscription-frame');
    await form.locator('#email').fill(SUBSCRIBER);
    await form.locator('#name').fill('Ann');
    await form.locator('#captchaCode').fill(IMAGE_CODE_ANSWER);
    await form.locator('button[type="submit"]').click();
    await form.locator('.subscribe-done').getByText('请查收确认邮件').waitFor();

    const { mail } = await peers.nextMail(SUBSCRIBER);
    assert.equal(mail.subject, '请确认订阅读者俱乐部');
    const link = linksIn(mail.raw).find((l) => l.includes('/subscribe/confirm/'));
    assert.ok(link, 'a confirmation link in the mail');

    // Not a member until the link is opened.
    await page.goto(`${herald.url}/sendRelative/address/addressEdit?id=${listId}`);
    await page.locator('.list-members-empty').waitFor();

    await visitor.goto(link);
    await visitor.getByText('订阅成功').first().waitFor();

    await page.reload();
    await page.locator(`tr[data-member="${SUBSCRIBER}"]`, { hasText: 'Ann' }).waitFor();
    await page.locator('.list-summary', { hasText: '共1个地址' }).waitFor();
  }));

test('the preview page shows the real snippet in each display mode; deleting a subscription stops its snippet', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendRelative/subscription`);
    await waitForShell(page);
    const row = page.locator('.subscriptions-table tr[data-subscription="读者俱乐部订阅"]');
    await row.locator('.subscription-edit').click();
    await page.waitForURL(/\/sendRelative\/subscription\/edit\?id=\d+$/);
    assert.equal(await page.locator('input[name="subscriptionName"]').inputValue(), '读者俱乐部订阅');
    // The API_KEY may stay empty while the API_USER does.
    assert.equal(await page.locator('input[name="subscriptionApiKey"]').inputValue(), '');
    await page.locator('.subscription-display-mode').getByText('底部栏').click();
    await page.locator('.subscription-theme-color').click();
    const hex = page.locator('.ant-color-picker-input input').first();
    await hex.fill('226644');
    await hex.press('Enter');
    await page.locator('.subscription-theme-color').getByText('#226644').waitFor();
    await page.locator('input[name="subscriptionFromName"]').click();
    await page.locator('.subscription-save').click();
    await toasts(page, 'success').filter({ hasText: '操作成功' }).first().waitFor();
    await page.waitForURL(/\/sendRelative\/subscription$/);
    await row.getByText('底部栏').waitFor();

    await row.locator('.subscription-config').click();
    const snippet = ((await page.locator('.subscription-snippet').textContent()) ?? '').trim();
    const publicId = decodeURIComponent(/id=([^"]+)"/.exec(snippet)?.[1] ?? '');

    const preview = await page.context().newPage();
    await preview.goto(`${herald.url}/preview?id=${encodeURIComponent(publicId)}`);
    // Without a mode, the subscription's own: a bottom bar in its theme colour.
    const bar = preview.locator('.herald-subscription-bar');
    await bar.waitFor();
    assert.match(
      (await bar.getAttribute('style')) ?? '',
      /bottom: 0px.*border-top: 3px solid rgb\(34, 102, 68\)/,
    );
    await bar.frameLocator('iframe').locator('#email').waitFor();

    await preview.locator('.subscription-preview-modes').getByText('弹窗').click();
    await bar.waitFor({ state: 'detached' });
    assert.match(preview.url(), /mode=popup/);
    const open = preview.locator('.herald-subscription-open');
    assert.match((await open.getAttribute('style')) ?? '', /background: rgb\(34, 102, 68\)/);
    await open.click();
    await preview.locator('.herald-subscription-popup').frameLocator('iframe').locator('#email').waitFor();
    await preview.locator('.herald-subscription-close').click();
    await preview.locator('.herald-subscription-popup').waitFor({ state: 'detached' });

    await preview.locator('.subscription-preview-modes').getByText('顶部栏').click();
    assert.match((await preview.locator('.herald-subscription-bar').getAttribute('style')) ?? '', /top: 0px/);
    await preview.locator('.subscription-preview-modes').getByText('新页面').click();
    await preview.locator('.herald-subscription-link', { hasText: '订阅我们的邮件' }).waitFor();
    await preview.locator('.subscription-preview-modes').getByText('嵌入').click();
    await preview.locator('.subscription-preview-host iframe.herald-subscription-frame').waitFor();
    assert.equal(await preview.locator('.herald-subscription-link').count(), 0);

    await page.goto(`${herald.url}/sendRelative/subscription`);
    await row.locator('.subscription-delete').click();
    await page
      .locator('.ant-popconfirm:visible')
      .getByText('删除后订阅页面和网站上的订阅表单将停止工作', { exact: false })
      .waitFor();
    await page.locator('.ant-popconfirm:visible .subscription-delete-ok').click();
    await toasts(page, 'success').filter({ hasText: '删除成功' }).first().waitFor();
    await page.locator('.subscriptions-empty').waitFor();

    siteHtml = `<!doctype html><html><body>${snippet}</body></html>`;
    await preview.goto(siteUrl());
    await preview.locator('.herald-subscription-unavailable', { hasText: '该订阅已停用' }).waitFor();
  }));
