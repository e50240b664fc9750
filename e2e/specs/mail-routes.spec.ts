import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { createDomain } from '../../server/test/fixtures/factory.ts';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';

/**
 * Receive routes on the console: the empty list leads to adding one; a URL route for a verified
 * domain is added through the form (its rule checked by the shared schema), listed, and deleted
 * after a confirmation.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;
let domain = '';

before(async () => {
  ({ herald, browser, owner } = await startConsoleTestbed());
  await withHeraldDatabase(herald, async (database) => {
    const user = await database.db
      .selectFrom('users')
      .select('account_id')
      .where('username', '=', owner.userName)
      .executeTakeFirstOrThrow();
    domain = (await createDomain(database, Number(user.account_id), { status: 'usable' })).name;
  });
});

after(() => stopConsoleTestbed({ browser, herald }));

test('a receive route is added, listed and deleted', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendSetting/route`);
    await waitForShell(page);
    await page.locator('.mail-routes-page').getByText('暂无路由：添加一条以接收客户的回信').waitFor();
    await page.locator('.mail-route-add').first().click();
    const modal = page.locator('.mail-route-modal');
    await modal.locator('.mail-route-domain').click();
    await page.locator('.ant-select-item-option', { hasText: domain }).click();
    await modal.locator('input.mail-route-expression').fill('Support!');
    await modal.locator('input.mail-route-url').fill('https://hooks.example.com/inbound');
    await page.locator('.mail-route-save').click();
    await modal.getByText('地址规则为*，或最多64个小写字母、数字和 . _ + - *').waitFor();
    await modal.locator('input.mail-route-expression').fill('support');
    await page.locator('.mail-route-save').click();
    await page.getByText('路由已添加').waitFor();
    const row = page.locator('.mail-routes-table tr.ant-table-row').first();
    assert.match(
      (await row.textContent()) ?? '',
      new RegExp(`support@${domain.replaceAll('.', '\\.')}.*https://hooks\\.example\\.com/inbound`),
    );

    await row.locator('.mail-route-delete').click();
    await page.locator('.mail-route-delete-ok').click();
    await page.locator('.mail-routes-page').getByText('暂无路由：添加一条以接收客户的回信').waitFor();
  }));
