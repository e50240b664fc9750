import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Herald, type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { createSmsTemplate } from '../../server/test/fixtures/sms-factory.ts';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import {
  confirmPopconfirm,
  expectText,
  logIn,
  startConsoleTestbed,
  stopConsoleTestbed,
  waitForShell,
} from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';
import { smsSenderOf, writeSmsCarrier } from '../harness/sms.ts';

/**
 * SMS tasks against a real Herald (its worker role runs the task): a paid account with a passed
 * marketing template and a contact list creates a task from the empty state, sees on the handset
 * what the first number will read, follows the task to its end on its own page while the carrier
 * peer receives each number's SMS, and cancels a scheduled task from the list after confirming.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;
let carrier: SmppCarrier;
const TEMPLATE = '会员日通知';

before(async () => {
  carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 5 });
  ({ herald, browser, owner } = await startConsoleTestbed());
  await writeSmsCarrier(herald, carrier);
  const sender = await smsSenderOf(herald, owner, 'task_e2e');
  await withHeraldDatabase(herald, async (database) => {
    const { db } = database;
    const now = Date.now();
    await db.updateTable('accounts').set({ plan: 'paid' }).where('id', '=', sender.accountId).execute();
    await createSmsTemplate(database, sender.accountId, {
      name: TEMPLATE,
      smsType: 'marketing',
      content: '%name%您好，会员日全场八折，回T退订',
      variables: { name: '张三' },
      signId: sender.signId,
    });
    const list = await db
      .insertInto('sms_contact_lists')
      .values({
        account_id: sender.accountId,
        name: '老客户',
        member_count: 2,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('sms_contact_members')
      .values([
        {
          list_id: Number(list.id),
          phone: '+8613800138001',
          name: '王五',
          vars: null,
          import_id: null,
          created_at: now,
        },
        {
          list_id: Number(list.id),
          phone: '+8613800138002',
          name: '赵六',
          vars: null,
          import_id: null,
          created_at: now,
        },
      ])
      .execute();
  });
});

after(() => stopConsoleTestbed({ browser, herald }, carrier));

test('a task is created with its preview, followed to its end, and each number gets its SMS', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendRelative/task`);
    await waitForShell(page);
    await page.locator('.sms-tasks-empty .sms-task-add').click();

    await page.waitForURL('**/s_sendRelative/task/taskOpt');
    const form = page.locator('.sms-task-edit-page');
    await form.locator('input[name="name"]').fill('十一月会员日');
    await form.locator('.sms-task-template').click();
    await page.locator('.ant-select-dropdown:visible').getByText(TEMPLATE).click();
    await form.locator('.sms-task-lists').click();
    await page.locator('.ant-select-dropdown:visible').getByText('老客户').click();
    await page.keyboard.press('Escape');
    await expectText(form.locator('.sms-phone-text'), '【赫耳墨斯】王五您好，会员日全场八折，回T退订');
    await form.locator('.sms-task-preview-total').getByText('所选列表共2个号码').waitFor();
    await form.locator('.sms-task-submit').click();

    await page.waitForURL(/\/s_sendRelative\/task\/taskPreivew\?id=\d+$/);
    const detail = page.locator('.sms-task-detail-page');
    await detail.locator('.sms-task-title').getByText('十一月会员日').waitFor();
    await detail.locator('.sms-task-status[data-status="finished"]').waitFor({ timeout: 30_000 });
    await expectText(detail.locator('.sms-task-figure-delivered .ant-statistic-content-value'), '2', 30_000);
    await detail.locator('.sms-task-progress.ant-progress-status-success').waitFor();
    await detail.locator('[aria-label="短信结果"]').waitFor();

    const received = await carrier.waitForMessages(2, 15_000);
    assert.deepEqual(received.map((sms) => [sms.destination, sms.text]).sort(), [
      ['8613800138001', '【赫耳墨斯】王五您好，会员日全场八折，回T退订'],
      ['8613800138002', '【赫耳墨斯】赵六您好，会员日全场八折，回T退订'],
    ]);

    await page.goto(`${herald.url}/s_sendRelative/task`);
    const row = page.locator('.sms-tasks-table tr[data-task-name="十一月会员日"]');
    await row.locator('.sms-task-status[data-status="finished"]').waitFor();
    await expectText(row.locator('.sms-task-delivered'), '2');
  }));

test('a scheduled task waits and is cancelled from the list after a confirmation', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendRelative/task/taskOpt`);
    await waitForShell(page);
    const form = page.locator('.sms-task-edit-page');
    await form.locator('input[name="name"]').fill('明晚的提醒');
    await form.locator('.sms-task-template').click();
    await page.locator('.ant-select-dropdown:visible').getByText(TEMPLATE).click();
    await form.locator('.sms-task-lists').click();
    await page.locator('.ant-select-dropdown:visible').getByText('老客户').click();
    await page.keyboard.press('Escape');
    await form.locator('.sms-task-mode').getByText('定时发送').click();
    await form.locator('.sms-task-time input').fill('2099-12-31 20:00');
    await page.locator('.ant-picker-dropdown:visible .ant-picker-ok button').click();
    await form.locator('.sms-task-submit').click();
    await page.waitForURL(/taskPreivew\?id=\d+$/);
    await page.locator('.sms-task-status[data-status="waiting"]').waitFor();
    await expectText(page.locator('.sms-task-figure-memberTotal .ant-statistic-content-value'), '2');

    await page.goto(`${herald.url}/s_sendRelative/task`);
    const row = page.locator('.sms-tasks-table tr[data-task-name="明晚的提醒"]');
    await row.getByText('定时 2099-12-31 20:00').waitFor();
    await confirmPopconfirm(page, row.locator('.sms-task-cancel'), 'sms-task-cancel-ok');
    await row.locator('.sms-task-status[data-status="cancelled"]').waitFor();
  }));
