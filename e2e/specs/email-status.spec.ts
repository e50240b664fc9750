import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';
import { type MailPeers, startMailPeers } from '../harness/mail-peers.ts';
import { type ApiCredentials, sendMail, writeSendingSetup } from '../harness/sending.ts';

/**
 * Email status and the block list against a real Herald: mail accepted through a SendCloud-style
 * form post shows on /sendResponse/emailStatus with its status, and its drawer shows the send
 * log (the request, and an attempt written as the delivery pipeline records one); an address
 * added to the block list is listed, and deleted after a confirmation. The verified domain, the
 * API_USER and its key are rows written into Herald's database, as the sending set-up leaves them.
 */
let peers: MailPeers;
let herald: Herald;
let browser: Browser;
let owner: TestUser;
let sender: ApiCredentials;
const domain = 'mail.e2e-status.example';

before(async () => {
  peers = await startMailPeers();
  ({ herald, browser, owner } = await startConsoleTestbed(peers.env));
  sender = await writeSendingSetup(herald, owner, { domain, apiUser: `e2e_status_${process.pid}` });
});

after(() => stopConsoleTestbed({ browser, herald }, peers));

test('accepted mail shows on the email status screen with its status and send log', (t) =>
  withPage(browser, t, async (page) => {
    const sent = await sendMail(herald, sender, {
      from: `news@${domain}`,
      to: 'reader@status-e2e.example',
      subject: 'Status e2e',
      html: '<p>Hi</p>',
    });
    assert.equal(sent.result, true, sent.message);
    const emailId = sent.info.emailIdList[0] ?? '';
    await withHeraldDatabase(herald, async ({ db }) => {
      const row = await db
        .selectFrom('message_recipients')
        .select(['id', 'account_id', 'created_at'])
        .where('email_id', '=', emailId)
        .executeTakeFirstOrThrow();
      await db
        .insertInto('recipient_attempts')
        .values({
          recipient_id: Number(row.id),
          account_id: Number(row.account_id),
          attempt: 99,
          at: Number(row.created_at) + 1000,
          outcome: 'deferred',
          category: 'server_unreachable',
          reason: 'server_unreachable',
          sub_status: null,
          reply: '451 4.4.1 e2e try again later',
          mx_host: 'mx.status-e2e.example',
          mx_ip: '127.0.0.1',
          tls: 0,
          duration_ms: 5,
        })
        .execute();
    });

    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendResponse/emailStatus`);
    await waitForShell(page);
    const row = page.locator('.email-status-table tr', { hasText: 'reader@status-e2e.example' });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /Status e2e/);
    assert.equal((await row.locator('[class*="email-status-"]').count()) > 0, true, 'a status tag');
    await row.locator('.email-status-open').click();
    const drawer = page.locator('.email-status-drawer');
    await drawer.waitFor();
    await drawer.getByText(emailId).waitFor();
    const log = drawer.locator('.email-status-send-log');
    await log.getByText('请求', { exact: true }).waitFor();
    await log.getByText('451 4.4.1 e2e try again later').waitFor();
    await log.getByText(/mx\.status-e2e\.example/).waitFor();

    await drawer.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });
    await page.locator('input[name="start"]').fill('2020-01-01');
    await page.locator('.email-status-search').click();
    await page.locator('.email-status-range-error').getByText('查询时间跨度不能超过一个月').waitFor();
  }));

test('an address added to the block list is listed, then deleted after a confirmation', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendResponse/trashList`);
    await waitForShell(page);
    await page.getByRole('tab', { name: '自定义黑名单' }).click();
    const list = page.locator('.suppression-list-block');
    await list.locator('.ant-empty').waitFor();

    await list.locator('.suppression-add').click();
    const dialog = page.locator('.suppression-add-modal');
    await dialog.waitFor();
    await dialog.locator('textarea[name="addresses"]').fill('not-an-address');
    await dialog.locator('.suppression-save').click();
    await dialog.getByText('邮箱格式错误，请检查每个地址').waitFor();
    await dialog
      .locator('textarea[name="addresses"]')
      .fill('blocked@status-e2e.example;second@status-e2e.example');
    await dialog.locator('.suppression-save').click();
    await list.locator('.suppression-table').getByText('blocked@status-e2e.example').waitFor();
    await list.locator('.suppression-table').getByText('second@status-e2e.example').waitFor();

    const target = list.locator('.suppression-table tr', { hasText: 'blocked@status-e2e.example' });
    await target.locator('.suppression-delete').click();
    await page.locator('.ant-popconfirm').getByText('确定将 blocked@status-e2e.example 移出列表？').waitFor();
    await page.locator('.suppression-delete-ok').click();
    await list
      .locator('.suppression-table')
      .getByText('blocked@status-e2e.example')
      .waitFor({ state: 'detached' });
    await list.locator('.suppression-table').getByText('second@status-e2e.example').waitFor();
  }));

test('mail to an address on the block list is recorded invalid, in blacklist (401)', (t) =>
  withPage(browser, t, async (page) => {
    const sent = await sendMail(herald, sender, {
      from: `news@${domain}`,
      to: 'second@status-e2e.example',
      subject: 'Blocked e2e',
      html: '<p>Hi</p>',
    });
    assert.equal(sent.result, true);
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendResponse/emailStatus`);
    await waitForShell(page);
    const row = page.locator('.email-status-table tr', { hasText: 'Blocked e2e' });
    for (let i = 0; i < 20 && !((await row.textContent().catch(() => '')) ?? '').includes('401'); i += 1) {
      await page.locator('.email-status-search').click();
      await page.waitForTimeout(500);
    }
    await row.getByText('在黑名单中').waitFor();
    await row.getByText('401').waitFor();
  }));
