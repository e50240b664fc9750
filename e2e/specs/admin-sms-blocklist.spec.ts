import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { operatorUser, type TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, toasts } from '../harness/console.ts';

/**
 * The global SMS interception list in /admin (issue 20), against a real Herald: the operator adds
 * a number on the screen (the shared rule first), sees it listed in its normal form, keeps it when
 * the delete is cancelled, and deletes it after confirming.
 */
let herald: Herald;
let browser: Browser;
let operator: TestUser;

before(async () => {
  ({ herald, browser } = await startConsoleTestbed());
  operator = await operatorUser(herald);
});

after(() => stopConsoleTestbed({ browser, herald }));

test('the operator adds a number, sees it, and deletes it after confirming', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, operator);
    await page.goto(`${herald.url}/admin/smsBlocklist`);
    await page.locator('.admin-sms-blocklist-page').waitFor();
    const table = page.locator('.admin-blocklist-table');
    await table.getByText('全局列表中还没有号码').waitFor();

    await page.locator('.admin-blocklist-add').click();
    await page.getByText('请填写1到200个手机号，用分号、逗号或换行隔开').waitFor();
    await page.locator('input.admin-blocklist-phones').fill('138 0013 8765');
    await page.locator('input.admin-blocklist-reason').fill('fraud reports');
    await page.locator('.admin-blocklist-add').click();
    await toasts(page, 'success').getByText('已添加1个号码').waitFor();

    const row = table.locator('tr', { hasText: '+8613800138765' });
    await row.getByText('fraud reports').waitFor();
    await row.getByText('运营添加').waitFor();
    await row.getByText('直到删除').waitFor();

    await row.locator('.admin-blocklist-delete').click();
    const confirm = page.locator('.ant-popconfirm:visible');
    await confirm.getByText('确定将 +8613800138765 移出全局列表吗').waitFor();
    await confirm.getByRole('button', { name: '取消' }).click();
    await confirm.waitFor({ state: 'hidden' });
    assert.equal(await row.count(), 1, 'a cancelled delete keeps the number');

    await row.locator('.admin-blocklist-delete').click();
    await page.locator('.ant-popconfirm:visible .admin-blocklist-delete-ok').click();
    await table.getByText('全局列表中还没有号码').waitFor();
    const left = await fetch(`${herald.url}/v3/api/admin/smsBlocklist`, {
      headers: { cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ') },
    });
    assert.equal((await left.json()).total, 0);
  }));
