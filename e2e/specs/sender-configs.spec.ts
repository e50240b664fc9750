import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser, Page } from 'playwright-core';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';

/**
 * Do-not-disturb windows on the sender configuration screen: the shared rule "end not before
 * start" in both languages in the form, then a valid window saved and listed.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;

before(async () => {
  ({ herald, browser, owner } = await startConsoleTestbed());
});

after(() => stopConsoleTestbed({ browser, herald }));

async function openNoDisturb(page: Page, lang: 'zh-cn' | 'en'): Promise<void> {
  await page.goto(`${herald.url}/sendSetting/sender?lang=${lang}`);
  await waitForShell(page);
  await page.locator('.senders-tabs .ant-tabs-tab').nth(4).click();
  await page.locator('.sender-config-nodisturb .sender-config-form').waitFor();
}

async function fillWindow(page: Page, start: string, end: string): Promise<void> {
  await page.locator('.nodisturb-start').fill(start);
  await page.locator('.nodisturb-end').fill(end);
  await page.locator('.sender-config-nodisturb .sender-config-save').click();
}

test('a do-not-disturb window: end before start refused in both languages, a valid one listed', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    for (const [lang, message] of [
      ['zh-cn', '结束时间不能早于开始时间'],
      ['en', 'The end time cannot be earlier than the start time'],
    ] as const) {
      await openNoDisturb(page, lang);
      await fillWindow(page, '22:00', '21:00');
      await page.locator('.ant-form-item-explain-error', { hasText: message }).waitFor();
    }
    await fillWindow(page, '21:00', '23:30');
    const row = page.locator('.sender-config-nodisturb .sender-config-table tbody tr', { hasText: '23:30' });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /21:00/);
    await page.reload();
    await page.locator('.senders-tabs .ant-tabs-tab').nth(4).click();
    await page
      .locator('.sender-config-nodisturb .sender-config-table tbody tr', { hasText: '23:30' })
      .waitFor();
  }));

async function openRelay(page: Page, lang: 'zh-cn' | 'en'): Promise<void> {
  await page.goto(`${herald.url}/sendSetting/sender?lang=${lang}`);
  await waitForShell(page);
  await page.locator('.senders-tabs .ant-tabs-tab').nth(7).click();
  await page.locator('.sender-config-relay .sender-config-form').waitFor();
}

test('a smart-host relay: a bad port refused in both languages, saved with a write-only password, removed after a confirmation', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    for (const [lang, message, none] of [
      [
        'zh-cn',
        '端口为1-65535的整数，常用587（STARTTLS）或465（TLS）',
        '未设置中继：邮件直接投递到收件方邮件服务器',
      ],
      [
        'en',
        'The port is a whole number from 1 to 65535, usually 587 (STARTTLS) or 465 (TLS)',
        "No relay: mail goes straight to the recipients' mail servers",
      ],
    ] as const) {
      await openRelay(page, lang);
      await page.locator('.relay-current', { hasText: none }).waitFor();
      await page.locator('.relay-host').fill('smtp.relay.example');
      await page.locator('.relay-port').fill('70000');
      await page.locator('.sender-config-relay .sender-config-save').click();
      await page.locator('.ant-form-item-explain-error', { hasText: message }).waitFor();
    }
    await page.locator('.relay-port').fill('587');
    await page.locator('.relay-username').fill('mailer');
    await page.locator('.relay-password input').fill('relay-pass-1');
    await page.locator('.sender-config-relay .sender-config-save').click();
    await page
      .locator('.relay-current', {
        hasText: "This account's mail goes through smtp://mailer@smtp.relay.example:587",
      })
      .waitFor();

    await page.reload();
    await page.locator('.senders-tabs .ant-tabs-tab').nth(7).click();
    await page.locator('.relay-current', { hasText: 'smtp://mailer@smtp.relay.example:587' }).waitFor();
    const password = page.locator('.relay-password input');
    assert.equal(await password.inputValue(), '', 'the saved password is never sent back');
    assert.equal(await password.getAttribute('placeholder'), 'Leave empty to keep the saved password');
    assert.equal(await page.locator('.relay-host').inputValue(), 'smtp.relay.example');

    await page.locator('.relay-remove').click();
    const removed = page.waitForResponse(
      (r) => r.request().method() === 'DELETE' && r.url().includes('/sendConfig/relay/'),
    );
    await page.locator('.ant-popconfirm:visible .ant-btn-dangerous').click();
    assert.equal((await removed).status(), 204, 'the relay is deleted');
    await page
      .locator('.relay-current', { hasText: "No relay: mail goes straight to the recipients' mail servers" })
      .waitFor();
  }));
