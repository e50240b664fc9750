import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';
import { codeIn, type MailPeers, startMailPeers } from '../harness/mail-peers.ts';

/**
 * SMS_USERs on /s_sendSetting/empower against a real Herald: the name rule under the field, the
 * SMS_KEY shown once and never again, and a reset behind the identity verification that shows a
 * new key and says until when the old one works.
 */
let peers: MailPeers;
let herald: Herald;
let browser: Browser;
let owner: TestUser;

before(async () => {
  peers = await startMailPeers();
  ({ herald, browser, owner } = await startConsoleTestbed(peers.env));
});

after(() => stopConsoleTestbed({ browser, herald }, peers));

test('an SMS_USER is created with its key shown once, and a reset shows a new one', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendSetting/empower`);
    await waitForShell(page);
    await page.locator('.sms-users-table .ant-empty').waitFor();
    assert.equal((await page.locator('.sms-user-count').textContent())?.trim(), '0 / 5');

    await page.locator('.sms-users-page .sms-user-add').first().click();
    const create = page.locator('.sms-user-create-modal');
    await create.locator('input[name="name"]').fill('ab');
    await create.locator('.sms-user-submit').click();
    await create.getByText('SMS_USER为4-20位字母、数字或下划线').waitFor();
    await create.locator('input[name="name"]').fill('shop_sms');
    await create.locator('.sms-user-submit').click();

    const shown = page.locator('.sms-key-modal');
    await shown.waitFor();
    assert.match((await shown.textContent()) ?? '', /仅显示一次/);
    const key = ((await shown.locator('.sms-key-value').textContent()) ?? '').trim();
    assert.match(key, /^[A-Za-z0-9_-]{43}$/);
    await shown.locator('.sms-key-close').click();
    await shown.waitFor({ state: 'detached' });
    await page.locator('.sms-users-table').getByText('shop_sms').waitFor();
    await page.locator('.sms-user-keys', { hasText: key.slice(-4) }).waitFor();
    assert.ok(!(await page.content()).includes(key), 'the key is not on the list');
    await page.reload();
    await page.locator('.sms-users-table').getByText('shop_sms').waitFor();
    assert.ok(!(await page.content()).includes(key), 'nor after a reload');

    await page.locator('.sms-user-reset').click();
    await page.locator('.sms-key-reset-modal').waitFor();
    await page.locator('.sms-key-reset-confirm').click();
    const verify = page.locator('.verify-identity-modal');
    await verify.waitFor();
    await verify.locator('.verify-send-code').click();
    const { text } = await peers.nextMail(`${owner.userName}@example.com`);
    await verify.locator('input[name="verifyCode"]').fill(codeIn(text));
    await verify.getByRole('button', { name: '验证' }).click();
    await shown.waitFor();
    const newKey = ((await shown.locator('.sms-key-value').textContent()) ?? '').trim();
    assert.notEqual(newKey, key);
    await shown.getByText('旧 SMS_KEY 有效期至').waitFor();
    await shown.locator('.sms-key-close').click();
    await page
      .locator('.sms-user-keys', { hasText: key.slice(-4) })
      .getByText('旧密钥')
      .waitFor();
  }));
