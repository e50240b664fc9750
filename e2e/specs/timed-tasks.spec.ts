import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { epochToZonedTime } from '@herald/shared/schemas/timed-task.schema';
import type { Herald } from '@herald/test-peers';
import { simpleParser } from 'mailparser';
import type { Browser } from 'playwright-core';
import { createDkimKey } from '../../server/src/core/domains/dkim-key.ts';
import { postEntry } from '../../server/src/core/ledger/ledger.repo.ts';
import { loadSecretKey, SecretBox } from '../../server/src/lib/secret-box.ts';
import { createTemplate } from '../../server/test/fixtures/factory.ts';
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
import { type MxPeers, startMxPeers } from '../harness/mail-peers.ts';
import { type ApiCredentials, apiv2, writeSendingSetup } from '../harness/sending.ts';

/**
 * Timed tasks against a real Herald (its worker role makes the request): a paid owner with a
 * passed template, an address list and a batch API_USER creates a task from the empty state for
 * a time a few seconds ahead in Beijing time, with an attachment; on the task's page it goes from
 * not requested to request succeeded and the members' mail, attachment and all, reaches the
 * loopback MX. A task for next year is cancelled from the list after a confirmation.
 */
const SENDING_DOMAIN = 'mail.e2e-timed.example';
const RECIPIENT_DOMAIN = 'inbox.e2e-timed.example';
const LIST_DOMAIN = 'maillist.e2e-timed.example';
const TEMPLATE = '会员月刊';
const ZONE = 'Asia/Shanghai';

let peers: MxPeers;
let herald: Herald;
let browser: Browser;
let owner: TestUser;
let sender: ApiCredentials;

before(async () => {
  peers = await startMxPeers([RECIPIENT_DOMAIN]);
  ({ herald, browser, owner } = await startConsoleTestbed({
    ...peers.env,
    HERALD_HOSTNAME: 'herald.test',
    HERALD_MAILLIST_DOMAIN: LIST_DOMAIN,
  }));
  sender = await writeSendingSetup(herald, owner, {
    domain: SENDING_DOMAIN,
    apiUser: 'e2e_timed_batch',
    emailType: 'batch',
    dkim: (accountId) =>
      createDkimKey(
        new SecretBox(loadSecretKey({ dataDir: herald.dataDir, secretKey: undefined })),
        accountId,
      ),
  });
  await withHeraldDatabase(herald, async (database) => {
    const { db } = database;
    const user = await db
      .selectFrom('users')
      .select('account_id')
      .where('username', '=', owner.userName)
      .executeTakeFirstOrThrow();
    const accountId = Number(user.account_id);
    await db.updateTable('accounts').set({ plan: 'paid' }).where('id', '=', accountId).execute();
    // A paid account sends while its balance is above zero.
    await db.transaction().execute((trx) =>
      postEntry(trx, {
        accountId,
        kind: 'adjustment',
        amountFen: 100_000,
        reason: 'e2e credit',
        detail: null,
        idempotencyKey: 'adjustment:e2e-timed',
        createdBy: null,
        at: Date.now(),
      }),
    );
    await createTemplate(database, accountId, {
      invokeName: 'monthly',
      status: 'passed',
      subject: '%name%，本月会员资讯',
      html: '<p>%name%您好，您的会员码是 %code%</p>',
      templateType: 'batch',
    });
    await db
      .updateTable('email_templates')
      .set({ name: TEMPLATE })
      .where('account_id', '=', accountId)
      .execute();
  });
  const list = await apiv2(herald, sender, 'addresslist/add', {
    address: `vip@${LIST_DOMAIN}`,
    name: '铂金会员',
  });
  assert.equal(list.statusCode, 200, list.message);
  const members = await apiv2(herald, sender, 'addressmember/add', {
    address: `vip@${LIST_DOMAIN}`,
    members: `ann@${RECIPIENT_DOMAIN};bob@${RECIPIENT_DOMAIN}`,
    names: '安妮;鲍勃',
    vars: `${JSON.stringify({ code: 'A1' })};${JSON.stringify({ code: 'B2' })}`,
  });
  assert.equal(members.statusCode, 200, members.message);
});

after(() => stopConsoleTestbed({ browser, herald }, peers));

async function fillTask(page: import('playwright-core').Page, name: string, sendAt: string) {
  const form = page.locator('.timed-task-form');
  await form.locator('input[name="name"]').fill(name);
  await form.locator('input[name="fromName"]').fill('赫耳墨斯商城');
  await form.locator('input[name="fromLocal"]').fill('news');
  await form.locator('.timed-task-template').click();
  await page.locator('.ant-select-dropdown:visible').getByText(TEMPLATE).click();
  await form.locator('.timed-task-lists').click();
  await page.locator('.ant-select-dropdown:visible').getByText('铂金会员').click();
  await page.keyboard.press('Escape');
  await form.locator('.timed-task-time-zone').click();
  await page.keyboard.type('Shanghai');
  await page.locator('.ant-select-dropdown:visible').getByText(`(GMT+08:00) ${ZONE}`).click();
  await form.locator('.timed-task-send-at input').fill(sendAt);
  await page.locator('.ant-picker-dropdown:visible .ant-picker-ok button').click();
}

test('a task made for a few seconds ahead is requested at its time and its mail arrives', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendRelative/timedTask`);
    await waitForShell(page);
    await page.locator('.timed-tasks-empty').getByText('还没有定时任务').waitFor();
    await page.locator('.timed-tasks-empty .timed-task-add').click();

    await page.waitForURL('**/sendRelative/timedTask/add');
    const attachment = Buffer.from('%PDF-1.4\n会员权益说明\n%%EOF\n', 'utf8');
    await page
      .locator('.timed-task-file-input')
      .setInputFiles({ name: '权益说明.pdf', mimeType: 'application/pdf', buffer: attachment });
    await page
      .locator('.timed-task-file')
      .getByText(/权益说明\.pdf/)
      .waitFor();
    const sendAt = Date.now() + 20_000;
    await fillTask(page, '十二月会员月刊', epochToZonedTime(sendAt, ZONE));
    await page.locator('.timed-task-submit').click();

    await page.waitForURL(/\/sendRelative\/timedTask\/detail\?id=\d+$/);
    const detail = page.locator('.timed-task-detail-page');
    await detail.locator('.timed-task-title').getByText('十二月会员月刊').waitFor();
    await expectText(detail.locator('.timed-task-status[data-status="waiting"]'), '未请求');
    await detail.locator('.timed-task-status[data-status="requested"]').waitFor({ timeout: 60_000 });
    await expectText(detail.locator('.timed-task-status'), '请求成功');
    await expectText(detail.locator('.timed-task-delivered .ant-statistic-content-value'), '2', 30_000);

    const mails = await peers.mx.waitForMessages(2, 15_000);
    assert.ok(Math.min(...mails.map((m) => m.startedAt.getTime())) >= Math.floor(sendAt / 1000) * 1000);
    const ann = mails.find((m) => m.rcptTo.includes(`ann@${RECIPIENT_DOMAIN}`));
    assert.ok(ann, 'a mail to ann');
    const parsed = await simpleParser(ann.bytes);
    assert.equal(parsed.subject, '安妮，本月会员资讯');
    assert.match(parsed.html || '', /安妮您好，您的会员码是 A1/);
    assert.equal(parsed.attachments[0]?.filename, '权益说明.pdf');
    assert.ok(parsed.attachments[0]?.content.equals(attachment), 'the attachment byte for byte');

    await page.goto(`${herald.url}/sendRelative/timedTask`);
    const row = page.locator('.timed-tasks-table tr[data-task-name="十二月会员月刊"]');
    await expectText(row.locator('.timed-task-status'), '请求成功');
    await expectText(row.locator('.timed-task-delivered'), '2');
  }));

test('a task for next year waits and is cancelled from the list after a confirmation', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendRelative/timedTask/add`);
    await waitForShell(page);
    const nextYear = new Date().getUTCFullYear() + 1;
    await fillTask(page, '明年的年刊', `${nextYear}-01-15 09:30:00`);
    await page.locator('.timed-task-submit').click();
    await page.waitForURL(/\/sendRelative\/timedTask\/detail\?id=\d+$/);

    await page.goto(`${herald.url}/sendRelative/timedTask`);
    const row = page.locator('.timed-tasks-table tr[data-task-name="明年的年刊"]');
    await expectText(row.locator('.timed-task-status'), '未请求');
    await confirmPopconfirm(page, row.locator('.timed-task-cancel'), 'timed-task-cancel-ok');
    await expectText(row.locator('.timed-task-status'), '已取消');
    assert.equal(await row.locator('.timed-task-cancel').count(), 0);
  }));
