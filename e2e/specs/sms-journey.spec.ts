import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Herald, type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import type { Browser, Page } from 'playwright-core';
import { operatorUser, type TestUser } from '../harness/accounts.ts';
import { openPage, withPage } from '../harness/browser.ts';
import {
  confirmPopconfirm,
  expectText,
  logIn,
  startConsoleTestbed,
  stopConsoleTestbed,
  toasts,
  waitForShell,
} from '../harness/console.ts';
import { writeSmsCarrier } from '../harness/sms.ts';

/**
 * The whole SMS journey of issue 20 through the screens, a customer and the platform operator
 * side by side against a real Herald and a loopback SMPP carrier that sends receipts: the
 * customer files for domestic SMS and the operator approves the filing and marks the account
 * enterprise-certified; the customer adds a signature and the operator passes it; the customer
 * writes a verification-code template with a %code% example and submits it, the operator passes
 * it; the customer creates an SMS_USER, sends a test SMS, the carrier gets exactly the signed
 * text with the code in place, and the status screen shows it delivered after the receipt. Only
 * the carrier and its route are written directly, as the operator's CLI does.
 */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n', 'latin1');
const SIGN = '赫耳墨斯';
const TEMPLATE = 'login_code';
const SMS_USER = 'journey_sms';
const PHONE = '13800138700';
const SENT_TEXT = `【${SIGN}】您的登录验证码是482913，5分钟内有效。`;

let herald: Herald;
let browser: Browser;
let owner: TestUser;
let operator: TestUser;
let carrier: SmppCarrier;

before(async () => {
  carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 20 });
  ({ herald, browser, owner } = await startConsoleTestbed());
  operator = await operatorUser(herald);
  await writeSmsCarrier(herald, carrier);
});

after(() => stopConsoleTestbed({ browser, herald }, carrier));

/** The operator's browser, logged in in a context of its own for the whole journey. */
async function operatorPage(): Promise<{ page: Page; close: () => Promise<void> }> {
  const { context, page } = await openPage(browser);
  await logIn(context, herald, operator);
  return { page, close: () => context.close() };
}

async function openReviews(ops: Page, tab: '签名' | '短信备案'): Promise<void> {
  await ops.goto(`${herald.url}/admin/smsReview`);
  await ops.locator('.admin-sms-review-page').waitFor();
  await ops.getByRole('tab', { name: tab }).click();
}

/** The customer files for domestic SMS; the operator approves it and certifies the account. */
async function fileAndCertify(page: Page, ops: Page): Promise<void> {
  await page.goto(`${herald.url}/s_sendRelative/guarantee`);
  await waitForShell(page);
  const form = page.locator('.sms-filing-form');
  await form.locator('input[name="handlerName"]').fill('张三');
  await form.locator('input[name="handlerIdNumber"]').fill('11010519491231002X');
  await form
    .locator('.sms-filing-commitment input[type="file"]')
    .setInputFiles({ name: '承诺书.pdf', mimeType: 'application/pdf', buffer: PDF });
  await form.locator('.sms-file-pdf').getByText('承诺书.pdf').waitFor();
  await form.locator('.sms-filing-submit').click();
  await page.locator('.sms-filing-status').getByText('审核中').waitFor();

  await openReviews(ops, '短信备案');
  const filing = ops.locator(`.review-filings-table tr[data-account-name="${owner.userName}"]`);
  await confirmPopconfirm(ops, filing.locator('.review-pass'), 'review-pass-ok');
  await filing.waitFor({ state: 'detached' });

  await page.reload();
  await page.getByText('备案已通过，可以发送国内短信、彩信和语音。').waitFor();

  await ops.goto(`${herald.url}/admin/accounts`);
  const search = ops.getByTestId('admin-accounts-search').locator('input');
  await search.fill(owner.userName);
  await search.press('Enter');
  const account = ops.locator(`tr[data-user-name="${owner.userName}"]`);
  await account.getByTestId('admin-account-certify').click();
  const choice = ops.locator('.ant-modal:visible .admin-certification-choice');
  await choice.getByText('企业认证').click();
  // A click on a modal still opening can miss: the choice must show as made before it is saved.
  await choice.locator('.ant-radio-wrapper-checked').getByText('企业认证').waitFor();
  await confirmPopconfirm(
    ops,
    ops.getByTestId('admin-certification-save'),
    'admin-certification-save-confirm',
  );
  await account.locator('.admin-account-certification').getByText('企业认证').waitFor();
}

/** The customer adds a signature; the operator passes it. */
async function addSignature(page: Page, ops: Page): Promise<void> {
  await page.goto(`${herald.url}/s_sendRelative/sign/add`);
  await waitForShell(page);
  await page.locator('input[name="signName"]').fill(SIGN);
  await page.locator('.sms-sign-name-check[data-available="true"]').waitFor();
  await page.locator('.sms-sign-submit').click();
  await page.waitForURL('**/s_sendRelative/sign');
  const row = page.locator(`.sms-signs-table tr[data-sign-name="${SIGN}"]`);
  await row.locator('.sms-sign-status').getByText('审核中').waitFor();

  await openReviews(ops, '签名');
  const review = ops.locator(`.review-signs-table tr[data-sign-name="${SIGN}"]`);
  await review.getByText(owner.userName).waitFor();
  await confirmPopconfirm(ops, review.locator('.review-pass'), 'review-pass-ok');
  await toasts(ops, 'success').getByText('已通过').waitFor();
  await review.waitFor({ state: 'detached' });

  await page.reload();
  await row.locator('.sms-sign-status').getByText('审核通过').waitFor();
}

/** The customer writes a verification-code template and submits it; the operator passes it. */
async function addTemplate(page: Page, ops: Page): Promise<void> {
  await page.goto(`${herald.url}/s_sendRelative/template/s_templateOpt`);
  await waitForShell(page);
  const editor = page.locator('.sms-template-edit-page');
  await editor.locator('.sms-template-name input, input.sms-template-name').fill(TEMPLATE);
  await editor.locator('.sms-template-type').getByText('验证码').click();
  await editor.locator('.sms-template-sign').click();
  await page.locator('.ant-select-dropdown').getByText(SIGN).click();
  await editor
    .locator('.sms-template-content textarea, textarea.sms-template-content')
    .fill('您的登录验证码是%code%，5分钟内有效。');
  await editor.locator('.sms-template-var-code input, input.sms-template-var-code').fill('123456');
  await expectText(editor.locator('.sms-phone-text'), `【${SIGN}】您的登录验证码是123456，5分钟内有效。`);
  await editor.locator('.sms-template-save').click();

  await page.waitForURL((url) => url.pathname === '/s_sendRelative/template');
  const row = page.locator(`tr[data-template-name="${TEMPLATE}"]`);
  await confirmPopconfirm(page, row.locator('.sms-template-submit'), 'sms-template-submit-ok');
  await row.locator('.sms-template-status[data-status="reviewing"]').waitFor();

  await ops.goto(`${herald.url}/admin/templates`);
  await ops.locator('.admin-templates-page').waitFor();
  const pending = ops.locator(`tr[data-sms-template-name="${TEMPLATE}"]`);
  await expectText(pending.locator('.admin-sms-text'), `【${SIGN}】您的登录验证码是123456，5分钟内有效。`);
  await confirmPopconfirm(ops, pending.getByTestId('admin-approve'), 'ant-btn-primary');
  await pending.waitFor({ state: 'detached' });

  await page.reload();
  await row.locator('.sms-template-status[data-status="passed"]').waitFor();
}

/** The customer creates an SMS_USER; its key is shown once and closed. */
async function addSmsUser(page: Page): Promise<void> {
  await page.goto(`${herald.url}/s_sendSetting/empower`);
  await waitForShell(page);
  await page.locator('.sms-users-page .sms-user-add').first().click();
  const create = page.locator('.sms-user-create-modal');
  await create.locator('input[name="name"]').fill(SMS_USER);
  await create.locator('.sms-user-submit').click();
  const shown = page.locator('.sms-key-modal');
  await shown.locator('.sms-key-value').waitFor();
  await shown.locator('.sms-key-close').click();
  await page.locator('.sms-users-table').getByText(SMS_USER).waitFor();
}

test('signature, template, both reviewed by the operator, an SMS_USER, a test send and its receipt', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    const ops = await operatorPage();
    try {
      await fileAndCertify(page, ops.page);
      await addSignature(page, ops.page);
      await addTemplate(page, ops.page);
    } finally {
      await ops.close();
    }
    await addSmsUser(page);

    await page.goto(`${herald.url}/s_sendRelative/test`);
    await waitForShell(page);
    const form = page.locator('.sms-test-page');
    await form.locator('.sms-test-user').getByText(SMS_USER).waitFor();
    await form.locator('.sms-test-template').click();
    await page.locator('.ant-select-dropdown').getByText(TEMPLATE).click();
    await form.locator('.sms-test-var-code input, input.sms-test-var-code').fill('482913');
    await form.locator('.sms-test-phones input, input.sms-test-phones').fill(PHONE);
    await expectText(form.locator('.sms-test-preview'), SENT_TEXT);
    await form.locator('.sms-test-send').click();
    await page.locator('.sms-test-result').getByText('已受理：1条短信').waitFor();

    const received = await carrier.waitForMessages(1, 15_000);
    assert.deepEqual(
      received.map((sms) => ({ destination: sms.destination, text: sms.text })),
      [{ destination: `86${PHONE}`, text: SENT_TEXT }],
    );

    await page.locator('.sms-test-result a').click();
    await page.locator('.sms-status-page').waitFor();
    const row = page.locator('.sms-status-table tbody tr', { hasText: `+86${PHONE}` });
    // The receipt comes a moment after the submission: search again until it is in.
    for (let i = 0; i < 20 && !(await row.locator('.sms-status-delivered').count()); i++) {
      await page.waitForTimeout(300);
      await page.locator('.sms-status-search').click();
    }
    await row.locator('.sms-status-delivered').getByText('发送成功').waitFor();
    const shown = (await row.textContent()) ?? '';
    assert.match(shown, new RegExp(SMS_USER));
    assert.equal(await page.locator('.sms-status-table tbody tr.ant-table-row').count(), 1);
    assert.equal(carrier.messages.length, 1, 'the carrier got the SMS once');
  }));
