import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';

/**
 * Importing and exporting SMS interception lists on /s_sendResponse/interceptor (issue 20): a
 * file of another format is refused with the server's reason; a csv file's numbers go in, and
 * the modal counts new, repeated and invalid lines and names the invalid ones; the list comes
 * back as a CSV download; keywords import the same way.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;

before(async () => {
  ({ herald, browser, owner } = await startConsoleTestbed());
});

after(() => stopConsoleTestbed({ browser, herald }));

const file = (name: string, text: string) => ({
  name,
  mimeType: name.endsWith('.csv') ? 'text/csv' : 'text/plain',
  buffer: Buffer.from(text, 'utf8'),
});

test('a csv file of numbers is imported with its counts, and the list exported as CSV', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendResponse/interceptor`);
    await waitForShell(page);
    const list = page.locator('.sms-blocks-block');
    await list.locator('.sms-blocks-table .ant-empty').waitFor();

    await list.locator('.sms-import-block').click();
    const modal = page.locator('.sms-import-modal');
    await modal.getByText(/每个文件最多100,000行/).waitFor();
    await modal.locator('input.sms-import-file').setInputFiles(file('numbers.xlsx', '13800138001'));
    await modal.locator('.sms-import-ok').click();
    await modal.getByText('文件格式错误，请上传 txt 或 csv 文件').waitFor();

    await modal
      .locator('input.sms-import-file')
      .setInputFiles(file('numbers.csv', '手机号,备注\n13800138061,张\n13800138062\n13800138061\n12345\n'));
    await modal.locator('input.sms-import-reason').fill('投诉');
    await modal.locator('.sms-import-ok').click();
    const result = modal.locator('.sms-import-result');
    await result.getByText('导入完成：新增2条，原已存在0条，重复1行，无效1行').waitFor();
    await result.getByText('第5行：12345').waitFor();
    await modal.locator('.sms-import-close').getByText('关闭').click();
    await modal.waitFor({ state: 'detached' });

    const row = list.locator('.sms-blocks-table tbody tr', { hasText: '+8613800138061' });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /投诉.*导入.*直到移除/);
    await list.locator('.sms-blocks-table tbody tr', { hasText: '+8613800138062' }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      list.locator('.sms-export-block').click(),
    ]);
    assert.match(download.suggestedFilename(), /^sms-block-list-\d{4}-\d\d-\d\d\.csv$/);
    const csv = fs.readFileSync(await download.path(), 'utf8');
    assert.ok(csv.startsWith('\uFEFF'), 'a byte order mark for spreadsheet programs');
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    assert.equal(lines[0], 'phone,reason,source,created_at,expires_at');
    assert.deepEqual(
      lines
        .slice(1)
        .map((l) => l.split(',').slice(0, 3).join(','))
        .sort(),
      ["'+8613800138061,投诉,import", "'+8613800138062,投诉,import"],
    );
  }));

test('keywords are imported from a txt file', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendResponse/interceptor`);
    await waitForShell(page);
    await page.locator('.sms-import-keyword').click();
    const modal = page.locator('.sms-import-modal');
    await modal.locator('input.sms-import-file').setInputFiles(file('words.txt', '贷款\n发票\n贷款\n'));
    await modal.locator('.sms-import-ok').click();
    await modal
      .locator('.sms-import-result')
      .getByText('导入完成：新增2条，原已存在0条，重复1行，无效0行')
      .waitFor();
    await modal.locator('.sms-import-close').getByText('关闭').click();
    await page.locator('.sms-keyword', { hasText: '贷款' }).waitFor();
    await page.locator('.sms-keyword', { hasText: '发票' }).waitFor();
  }));
