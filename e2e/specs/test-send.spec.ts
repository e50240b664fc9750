import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { createTestUser, type TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';
import { type MailPeers, startMailPeers } from '../harness/mail-peers.ts';
import { writeSendingSetup } from '../harness/sending.ts';

/**
 * Test send from the console against a real Herald: the user picks an API_USER, writes a mail
 * to two addresses from the API_USER's domain, and sees the accepted emailIds and the two
 * recipient records with status "requested" (also checked in the database). The verified
 * domain and the API_USER are rows written into the Herald's database, as the domains and
 * API_USER areas would leave them. Herald runs the api role only, so nothing delivers the mail
 * while the test looks at it.
 */
let peers: MailPeers;
let herald: Herald;
let browser: Browser;
let owner: TestUser;
const DOMAIN = 'mail.e2e-testsend.example';

before(async () => {
  peers = await startMailPeers();
  // The api role alone: no delivery worker picks the mail up, so what the screen shows is the
  // accepted state itself (the whole flow to the MX is e2e/specs/sending-flow.spec.ts).
  ({ herald, browser, owner } = await startConsoleTestbed({ ...peers.env, HERALD_ROLE: 'api' }));
  await writeSendingSetup(herald, owner, { domain: DOMAIN, apiUser: 'e2e_test_sender' });
});

after(() => stopConsoleTestbed({ browser, herald }, peers));

test('a test mail sent from the console is accepted and its recipients appear with status requested', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendRelative/test`);
    await waitForShell(page);
    await page.locator('.test-send-recent .ant-empty').waitFor();

    await page.locator('.test-send-api-user').click();
    await page.locator('.ant-select-item-option', { hasText: 'e2e_test_sender' }).click();
    await page.getByText(`必须是${DOMAIN}下的地址`).waitFor();
    await page.locator('input[name="from"]').fill('hello@elsewhere.example');
    await page
      .locator('input[name="to"]')
      .fill('a@x.example;b@x.example;c@x.example;d@x.example;e@x.example;f@x.example');
    await page.locator('.test-send-submit').click();
    await page.getByText('最多5个收件人, 以分号分隔').waitFor();

    await page.locator('input[name="to"]').fill('ann@reader.example;bob@reader.example');
    await page.locator('input[name="subject"]').fill('测试邮件');
    await page.locator('textarea[name="html"]').fill('<p>你好</p>');
    await page.locator('.test-send-submit').click();
    await page.getByText(`发信地址必须使用该API_USER绑定的发信域名${DOMAIN}`).waitFor();

    await page.locator('input[name="from"]').fill(`hello@${DOMAIN}`);
    await page.locator('.test-send-submit').click();
    const accepted = page.locator('.test-send-accepted');
    await accepted.waitFor();
    assert.match((await accepted.textContent()) ?? '', /已受理：2封邮件等待投递/);
    const ids = (await accepted.locator('code').allTextContents()).map((s) => s.trim());
    assert.equal(ids.length, 2);
    assert.match(ids[0] ?? '', /inbound0\$ann@reader\.example$/);

    const recent = page.locator('.test-send-recent');
    await recent.getByText('bob@reader.example').waitFor();
    assert.equal(await recent.locator('.test-send-status-requested').count(), 2);
    assert.equal(await recent.getByText('请求中').count(), 2);

    const rows = await withHeraldDatabase(herald, (database) =>
      database.db
        .selectFrom('message_recipients')
        .innerJoin('messages', 'messages.id', 'message_recipients.message_id')
        .select(['message_recipients.email_id', 'message_recipients.status', 'messages.source'])
        .orderBy('message_recipients.rcpt_index')
        .execute(),
    );
    assert.deepEqual(
      rows.map((r) => [r.email_id, r.status, r.source]),
      ids.map((id) => [id, 'requested', 'test']),
    );
  }));

test('without an API_USER the test-send screen leads to the next step, a sending domain first', (t) =>
  withPage(browser, t, async (page) => {
    const newcomer = await createTestUser(herald);
    await logIn(page.context(), herald, newcomer);
    await page.goto(`${herald.url}/sendRelative/test`);
    await waitForShell(page);
    const empty = page.locator('.test-send-no-api-users');
    await empty.getByText('还没有可发信的发信域名').waitFor();
    await empty.locator('.test-send-add-domain').click();
    await page.waitForURL((url) => url.pathname === '/sendSetting/domain');
    await page.locator('.domains-page').waitFor();
  }));
