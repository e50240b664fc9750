import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { createTestUser, type TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import {
  confirmPopconfirm,
  logIn,
  startConsoleTestbed,
  stopConsoleTestbed,
  toasts,
  waitForShell,
} from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';
import { importCsv } from '../harness/list-import.ts';

/**
 * Email address lists against a real Herald (its worker role runs the import): a paid owner
 * creates a list from the empty state and lands on its members, imports a CSV with a bad and a
 * repeated line (the progress bar and the counts), finds an address by search, edits and removes
 * it, and deletes the list after a confirmation naming its size; a free owner is told the
 * function is for paid users.
 */
const DOMAIN = 'maillist.e2e.example';

let herald: Herald;
let browser: Browser;
let owner: TestUser;

before(async () => {
  ({ herald, browser, owner } = await startConsoleTestbed({ HERALD_MAILLIST_DOMAIN: DOMAIN }));
  await withHeraldDatabase(herald, async ({ db }) => {
    const user = await db
      .selectFrom('users')
      .select('account_id')
      .where('username', '=', owner.userName)
      .executeTakeFirstOrThrow();
    await db.updateTable('accounts').set({ plan: 'paid' }).where('id', '=', user.account_id).execute();
  });
});

after(() => stopConsoleTestbed({ browser, herald }));

const CSV = [
  '邮箱,姓名,city',
  'zhang@example.com,张三,上海',
  'Li@Example.com,李四,北京',
  'not-an-address,坏地址,',
  'wang@example.com,王五,',
  'zhang@example.com,张三again,',
].join('\n');

test('a paid owner fills a list from a CSV, edits and removes an address, and deletes the list', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendRelative/address`);
    await waitForShell(page);
    await page.locator('.lists-empty').waitFor();
    await page.locator('.lists-empty .list-add').click();

    const form = page.locator('.address-list-form-modal');
    await form.locator('input[name="addressListName"]').fill('VIP客户');
    await form.locator('input[name="addressListPrefix"]').fill('vip_2026');
    await form.getByText(`@${DOMAIN}`).waitFor();
    await form.locator('textarea[name="addressListDescription"]').fill('年终活动');
    await form.locator('.address-list-save').click();
    await toasts(page, 'success').filter({ hasText: '操作成功' }).first().waitFor();

    // A new list opens on its members.
    await page.waitForURL(/\/sendRelative\/address\/addressEdit\?id=\d+$/);
    await page.locator('.list-title', { hasText: '地址列表：VIP客户' }).waitFor();
    await page.locator('.list-summary', { hasText: `vip_2026@${DOMAIN} · 共0个地址` }).waitFor();
    await page.locator('.list-members-empty').waitFor();

    const dialog = await importCsv(page, 'vip.csv', CSV);
    assert.equal(
      await dialog.locator('.list-import-counts').textContent(),
      '已读取5行：新增3个，重复1个，无效1个',
    );
    await dialog.locator('.list-import-report').waitFor();
    await dialog.locator('.list-import-close').click();

    const rows = page.locator('.list-members-table tr.ant-table-row');
    await page.locator('.list-summary', { hasText: '共3个地址' }).waitFor();
    assert.equal(await rows.count(), 3);
    await page.locator('tr[data-member="zhang@example.com"]').getByText('city: 上海').waitFor();
    // Addresses are kept in lower case.
    await page.locator('tr[data-member="li@example.com"]', { hasText: '李四' }).waitFor();

    await page.locator('.list-members-search input').fill('li@example');
    await page.locator('.list-members-search input').press('Enter');
    await rows.filter({ hasText: '张三' }).waitFor({ state: 'detached' });
    assert.equal(await rows.count(), 1);

    await page.locator('tr[data-member="li@example.com"] .list-member-edit').click();
    const member = page.locator('.list-member-form-modal');
    assert.equal(await member.locator('input[name="memberKey"]').inputValue(), 'li@example.com');
    await member.locator('input[name="memberName"]').fill('李思');
    await member.locator('.list-member-save').click();
    await toasts(page, 'success').filter({ hasText: '操作成功' }).first().waitFor();
    await page.locator('tr[data-member="li@example.com"]', { hasText: '李思' }).waitFor();

    await confirmPopconfirm(
      page,
      page.locator('tr[data-member="li@example.com"] .list-member-delete'),
      'list-member-delete-ok',
    );
    await toasts(page, 'success').filter({ hasText: '删除成功' }).first().waitFor();
    await page.locator('.list-summary', { hasText: '共2个地址' }).waitFor();
    await page.locator('.list-members-table').getByText('没有匹配的地址').waitFor();

    await page.goto(`${herald.url}/sendRelative/address`);
    const list = page.locator('.lists-table tr[data-list-name="VIP客户"]');
    await list.getByText(`vip_2026@${DOMAIN}`).waitFor();
    await list.locator('.list-count', { hasText: '2' }).waitFor();
    await list.locator('.list-delete').click();
    await page
      .locator('.ant-popconfirm:visible')
      .getByText('删除列表“VIP客户”及其全部2个地址？删除后不可恢复。')
      .waitFor();
    await page.locator('.ant-popconfirm:visible .list-delete-ok').click();
    await toasts(page, 'success').filter({ hasText: '删除成功' }).first().waitFor();
    await page.locator('.lists-empty').waitFor();
  }));

test('a free owner is told address lists are for paid users', (t) =>
  withPage(browser, t, async (page) => {
    const free = await createTestUser(herald);
    await logIn(page.context(), herald, free);
    await page.goto(`${herald.url}/sendRelative/address`);
    await waitForShell(page);
    await page.locator('.address-lists-paid-only').getByText('地址列表仅对付费用户开放。').waitFor();
    await page.locator('.address-lists-paid-only').getByText('升级为付费用户').waitFor();
    assert.equal(await page.locator('.list-add').count(), 0);
    assert.equal(await page.locator('.lists-table').count(), 0);
  }));
