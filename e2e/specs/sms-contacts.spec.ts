import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
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
  toasts,
  waitForShell,
} from '../harness/console.ts';
import { importCsv } from '../harness/list-import.ts';

/**
 * SMS contact lists against a real Herald (its worker role runs the import): a list created from
 * the empty state, a CSV with a bad line imported with its progress bar and counts, the error
 * report downloaded, a number found by search and deleted, the counts following.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;

before(async () => {
  ({ herald, browser, owner } = await startConsoleTestbed());
});

after(() => stopConsoleTestbed({ browser, herald }));

const CSV = [
  '手机号,姓名,city',
  '13800138001,张三,上海',
  '13800138002,李四,北京',
  '12345,坏号码,',
  '13800138003,王五,',
].join('\n');

test('a list is created, filled from a CSV with a bad line, searched and trimmed', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendRelative/contact`);
    await waitForShell(page);
    await page.locator('.lists-empty').waitFor();
    await page.locator('.lists-empty .list-add').click();

    const form = page.locator('.contact-list-form-modal');
    await form.locator('input[name="contactListName"]').fill('双十一客户');
    await form.locator('textarea[name="contactListDescription"]').fill('活动通知');
    await form.locator('.contact-list-save').click();
    await toasts(page, 'success').filter({ hasText: '操作成功' }).first().waitFor();

    // A new list opens on its numbers.
    await page.waitForURL(/\/s_sendRelative\/contact\/contactEdit\?id=\d+$/);
    await page.locator('.list-title', { hasText: '通讯录：双十一客户' }).waitFor();
    await page.locator('.list-members-empty').waitFor();

    const dialog = await importCsv(page, 'customers.csv', CSV);
    assert.equal(
      await dialog.locator('.list-import-counts').textContent(),
      '已读取4行：新增3个，重复0个，无效1个',
    );
    const [report] = await Promise.all([
      page.waitForEvent('download'),
      dialog.locator('.list-import-report').click(),
    ]);
    assert.match(report.suggestedFilename(), /^import-errors-\d+\.csv$/);
    const text = (await readFile((await report.path()) ?? '', 'utf8')).replace(/^\uFEFF/, '');
    assert.deepEqual(text.trimEnd().split('\r\n'), [
      '行号,内容,原因',
      '4,"12345,坏号码,",手机号格式错误（国际号码请带国家码，如+1）',
    ]);
    await dialog.locator('.list-import-close').click();

    const rows = page.locator('.list-members-table tr.ant-table-row');
    await page.locator('.list-summary', { hasText: '共3个号码' }).waitFor();
    assert.equal(await rows.count(), 3);
    await rows.filter({ hasText: '张三' }).getByText('city: 上海').waitFor();

    await page.locator('.list-members-search input').fill('李四');
    await page.locator('.list-members-search input').press('Enter');
    await page.locator('.list-members-table tr[data-member="+8613800138002"]').waitFor();
    await rows.filter({ hasText: '张三' }).waitFor({ state: 'detached' });
    assert.equal(await rows.count(), 1);

    await confirmPopconfirm(
      page,
      page.locator('tr[data-member="+8613800138002"] .list-member-delete'),
      'list-member-delete-ok',
    );
    await toasts(page, 'success').filter({ hasText: '删除成功' }).first().waitFor();
    await page.locator('.list-summary', { hasText: '共2个号码' }).waitFor();
    await page.locator('.list-members-table').getByText('没有匹配的号码').waitFor();

    await page.goto(`${herald.url}/s_sendRelative/contact`);
    await page
      .locator('.lists-table tr[data-list-name="双十一客户"] .list-count', { hasText: '2' })
      .waitFor();
  }));
