import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import {
  confirmPopconfirm,
  logIn,
  startConsoleTestbed,
  stopConsoleTestbed,
  waitForShell,
} from '../harness/console.ts';
import { codeIn, type MailPeers, startMailPeers } from '../harness/mail-peers.ts';

/**
 * CMPP_USERs on /s_sendSetting/empower, beside SMS_USERs, against a real Herald: the 6-character
 * rule under the field, the secret shown once and never on the list, a reset behind the identity
 * verification that shows a new secret, and a delete that asks first.
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

test('a CMPP_USER is created with its secret shown once, reset behind verification, then deleted', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendSetting/empower`);
    await waitForShell(page);
    const card = page.locator('.gateway-users-card');
    await card.getByText('还没有 CMPP/SMPP 账号').waitFor();
    assert.equal((await card.locator('.gateway-user-count').textContent())?.trim(), '0 / 5');

    await card.locator('.gateway-user-add').click();
    const create = page.locator('.gateway-user-create-modal');
    await create.locator('input[name="name"]').fill('shop1');
    await create.locator('.gateway-user-submit').click();
    await create.getByText('CMPP_USER为6位字母或数字').waitFor();
    await create.locator('input[name="name"]').fill('shop01');
    await create.locator('textarea[name="allowedIps"]').fill('203.0.113.0/24');
    await create.locator('.gateway-user-submit').click();

    const shown = page.locator('.gateway-secret-modal');
    await shown.waitFor();
    assert.match((await shown.textContent()) ?? '', /仅显示一次/);
    const secret = ((await shown.locator('.gateway-secret-value').textContent()) ?? '').trim();
    assert.match(secret, /^[A-Za-z0-9]{16}$/);
    await shown.locator('.gateway-secret-close').click();
    await shown.waitFor({ state: 'detached' });
    const row = card.locator('.gateway-users-table tr', { hasText: 'shop01' });
    await row.getByText('203.0.113.0/24').waitFor();
    await row.getByText(`尾号 ${secret.slice(-4)}`).waitFor();
    assert.equal((await card.locator('.gateway-user-count').textContent())?.trim(), '1 / 5');
    await page.reload();
    await row.waitFor();
    assert.ok(!(await page.content()).includes(secret), 'the secret is never on the list');

    await confirmPopconfirm(page, row.locator('.gateway-user-reset'), 'gateway-reset-confirm');
    const verify = page.locator('.verify-identity-modal');
    await verify.waitFor();
    await verify.locator('.verify-send-code').click();
    const { text } = await peers.nextMail(`${owner.userName}@example.com`);
    await verify.locator('input[name="verifyCode"]').fill(codeIn(text));
    await verify.getByRole('button', { name: '验证' }).click();
    await shown.waitFor();
    const newSecret = ((await shown.locator('.gateway-secret-value').textContent()) ?? '').trim();
    assert.match(newSecret, /^[A-Za-z0-9]{16}$/);
    assert.notEqual(newSecret, secret);
    await shown.locator('.gateway-secret-close').click();
    await row.getByText(`尾号 ${newSecret.slice(-4)}`).waitFor();

    await confirmPopconfirm(page, row.locator('.gateway-user-delete'), 'gateway-delete-confirm');
    await card.getByText('还没有 CMPP/SMPP 账号').waitFor();
    assert.equal((await card.locator('.gateway-user-count').textContent())?.trim(), '0 / 5');
  }));
