import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser, Locator, Page } from 'playwright-core';
import { SessionsService } from '../../server/src/core/sessions/sessions.service.ts';
import { createTestUser, type TestUser } from '../harness/accounts.ts';
import { openPage, withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, toasts, waitForShell } from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';

/**
 * SMS signatures and the SMS filing against a real Herald, customer and operator side by side:
 * a signature with a third party's licence image goes to review; the operator rejects it with a
 * reason; the customer sees the reason, edits and resubmits; the operator passes it and the list
 * shows it passed. The filing goes the same way (rejected, resubmitted, approved), and the
 * operator marks the account enterprise-certified on /admin/accounts.
 */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n', 'latin1');
const ID_NUMBER = '11010519491231002X';
const ID_MASKED = '110***********002X';

let herald: Herald;
let browser: Browser;
let owner: TestUser;
let operator: TestUser;

before(async () => {
  ({ herald, browser, owner } = await startConsoleTestbed());
  operator = await operatorUser(herald);
});

after(() => stopConsoleTestbed({ browser, herald }));

/** A session of the platform operator Herald created on its first start. */
function operatorUser(target: Herald): Promise<TestUser> {
  return withHeraldDatabase(target, async (database) => {
    const row = await database.db
      .selectFrom('users')
      .innerJoin('accounts', 'accounts.id', 'users.account_id')
      .select(['users.id', 'users.account_id', 'users.username'])
      .where('accounts.kind', '=', 'platform')
      .where('users.is_owner', '=', 1)
      .executeTakeFirstOrThrow();
    const token = await new SessionsService(database).create({
      accountId: Number(row.account_id),
      userId: Number(row.id),
    });
    return { token, tokenType: 'Bearer', userName: row.username };
  });
}

/** The operator's review screen in a context of its own. */
async function operatorPage(): Promise<{ page: Page; close: () => Promise<void> }> {
  const { context, page } = await openPage(browser);
  await logIn(context, herald, operator);
  await page.goto(`${herald.url}/admin/smsReview`);
  await page.locator('.admin-sms-review-page').waitFor();
  return { page, close: () => context.close() };
}

function chooseFile(field: Locator, name: string, mimeType: string, buffer: Buffer) {
  return field.locator('input[type="file"]').setInputFiles({ name, mimeType, buffer });
}

/** Waits until an image preview has loaded: the file was served back as the image it is. */
async function imageLoaded(image: Locator): Promise<void> {
  await image.waitFor();
  const handle = await image.elementHandle();
  await image
    .page()
    .waitForFunction((el) => el instanceof HTMLImageElement && el.complete && el.naturalWidth > 0, handle);
}

/** Opens a Popconfirm's trigger and clicks its OK (classed `okClass`). */
async function confirm(page: Page, trigger: Locator, okClass: string): Promise<void> {
  await trigger.click();
  await page.locator(`.ant-popconfirm:visible .${okClass}`).click();
}

async function rejectWith(page: Page, row: Locator, reason: string): Promise<void> {
  await row.locator('.review-reject').click();
  const modal = page.locator('.ant-modal:visible');
  await modal.locator('.review-reason').waitFor();
  await modal.locator('.review-reject-ok').click();
  await modal.getByText('请填写驳回原因（最多200字）').waitFor();
  await modal.locator('.review-reason textarea').fill(reason);
  await modal.locator('.review-reject-ok').click();
  await modal.waitFor({ state: 'hidden' });
}

test('a signature with a licence image is rejected with a reason, edited, resubmitted and passed', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendRelative/sign`);
    await waitForShell(page);
    const empty = page.locator('.sms-signs-empty');
    await empty.getByText('还没有签名。先新增一个签名，审核通过后即可用它创建短信模板。').waitFor();
    await empty.locator('.sms-sign-add').click();
    await page.waitForURL('**/s_sendRelative/sign/add');

    // The name rules as the user types, then the server's availability check.
    const name = page.locator('input[name="signName"]');
    await name.fill('【顺丰】');
    await page.getByText('签名不能包含括号（包括【】及全角括号）').waitFor();
    await name.fill('顺丰速运');
    await page.locator('.sms-sign-name-check[data-available="true"]').getByText('该签名可以使用').waitFor();

    await page.locator('.sms-sign-third-party').click();
    const licence = page.locator('.sms-sign-license');
    await chooseFile(licence, 'licence.png', 'image/png', PNG);
    await imageLoaded(licence.locator('img'));
    // A file whose bytes are not what its name says is refused under its field.
    const attachments = page.locator('.sms-sign-attachments');
    await chooseFile(attachments, 'trademark.png', 'image/png', Buffer.from('<html>not an image</html>'));
    await attachments.getByText('上传文件无效（内容与文件类型不符），请重新上传').waitFor();
    await chooseFile(attachments, 'trademark.pdf', 'application/pdf', PDF);
    await attachments.locator('.sms-file-pdf').getByText('trademark.pdf').waitFor();

    await page.locator('input[name="legalPersonName"]').fill('王卫');
    await page.locator('input[name="legalPersonIdNumber"]').fill('110105194912310021');
    await page.locator('.sms-sign-submit').click();
    await page.getByText('身份证号格式不正确').waitFor();
    await page.locator('input[name="legalPersonIdNumber"]').fill(ID_NUMBER);
    await page.locator('.sms-sign-submit').click();

    await page.waitForURL('**/s_sendRelative/sign');
    const row = page.locator('.sms-signs-table tr[data-sign-name="顺丰速运"]');
    await row.locator('.sms-sign-status').getByText('审核中').waitFor();

    const ops = await operatorPage();
    try {
      const review = ops.page.locator('.review-signs-table tr[data-sign-name="顺丰速运"]');
      await review.getByText(owner.userName).waitFor();
      await review.locator('.review-third-party').getByText(ID_NUMBER).waitFor();
      await imageLoaded(review.locator('.review-files img'));
      await rejectWith(ops.page, review, '营业执照不清晰，请重新上传');
      await review.waitFor({ state: 'detached' });

      await page.reload();
      await row.locator('.sms-sign-status').getByText('审核未通过').waitFor();
      await row.locator('.sms-sign-reason').getByText('驳回原因：营业执照不清晰，请重新上传').waitFor();

      await row.locator('.sms-sign-edit').click();
      await page.waitForURL('**/s_sendRelative/sign/add?id=*');
      await page.locator('.sms-sign-rejected').getByText('驳回原因：营业执照不清晰，请重新上传').waitFor();
      assert.equal(await page.locator('input[name="signName"]').inputValue(), '顺丰速运');
      await page.getByText(`已保存：${ID_MASKED}。修改签名时请重新填写。`).waitFor();
      await imageLoaded(licence.locator('img'));
      await chooseFile(licence, 'licence-clear.png', 'image/png', PNG);
      await licence.locator('img[alt="licence-clear.png"]').waitFor();
      await page.locator('input[name="legalPersonIdNumber"]').fill(ID_NUMBER);
      await page.locator('.sms-sign-submit').click();
      await page.waitForURL('**/s_sendRelative/sign');
      await row.locator('.sms-sign-status').getByText('审核中').waitFor();
      assert.equal(await row.locator('.sms-sign-reason').count(), 0, 'the old reason is gone');

      await ops.page.reload();
      await review.waitFor();
      await confirm(ops.page, review.locator('.review-pass'), 'review-pass-ok');
      await toasts(ops.page, 'success').getByText('已通过').waitFor();
      await review.waitFor({ state: 'detached' });
      await ops.page.locator('.ant-segmented-item', { hasText: '审核通过' }).first().click();
      await review.getByText('审核通过').waitFor();
    } finally {
      await ops.close();
    }

    await page.reload();
    await row.locator('.sms-sign-status').getByText('审核通过').waitFor();
    await page.locator('.sms-signs-filter .ant-segmented-item', { hasText: '审核未通过' }).click();
    await page.getByText('没有该状态的签名').waitFor();
    await page.locator('.sms-signs-filter .ant-segmented-item', { hasText: '审核通过' }).click();
    await row.waitFor();
  }));

test('the SMS filing is rejected, resubmitted and approved; the operator marks the account certified', (t) =>
  withPage(browser, t, async (page) => {
    const customer = await createTestUser(herald);
    await logIn(page.context(), herald, customer);
    await page.goto(`${herald.url}/s_sendRelative/guarantee`);
    await waitForShell(page);
    const form = page.locator('.sms-filing-form');
    await form.locator('.sms-filing-submit').click();
    await form.getByText('请上传承诺书（jpg、png 或 pdf，一个文件）').waitFor();
    await form.locator('input[name="handlerName"]').fill('张三');
    await form.locator('input[name="handlerIdNumber"]').fill(ID_NUMBER);
    await chooseFile(form.locator('.sms-filing-commitment'), '承诺书.pdf', 'application/pdf', PDF);
    await form.locator('.sms-file-pdf').getByText('承诺书.pdf').waitFor();
    await form.locator('.sms-filing-submit').click();
    await page.locator('.sms-filing-status').getByText('审核中').waitFor();
    await page.locator('.sms-filing-details').getByText(ID_MASKED).waitFor();
    assert.equal(await page.locator('.sms-filing-form').count(), 0, 'no form while it is reviewed');

    const ops = await operatorPage();
    try {
      await ops.page.getByRole('tab', { name: '短信备案' }).click();
      const review = ops.page.locator(`.review-filings-table tr[data-account-name="${customer.userName}"]`);
      await review.getByText(ID_NUMBER).waitFor();
      await rejectWith(ops.page, review, '承诺书未加盖公章');
      await review.waitFor({ state: 'detached' });

      await page.reload();
      await page.locator('.sms-filing-status').getByText('未通过').waitFor();
      await page.locator('.sms-filing-rejected').getByText('驳回原因：承诺书未加盖公章').waitFor();
      await form.locator('input[name="handlerName"]').fill('张三');
      await form.locator('input[name="handlerIdNumber"]').fill(ID_NUMBER);
      await chooseFile(form.locator('.sms-filing-commitment'), 'stamped.png', 'image/png', PNG);
      await imageLoaded(form.locator('.sms-filing-commitment img'));
      await form.locator('.sms-filing-submit').getByText('重新提交').click();
      await page.locator('.sms-filing-status').getByText('审核中').waitFor();

      await ops.page.reload();
      await ops.page.getByRole('tab', { name: '短信备案' }).click();
      await confirm(ops.page, review.locator('.review-pass'), 'review-pass-ok');
      await review.waitFor({ state: 'detached' });

      await page.reload();
      await page.locator('.sms-filing-status').getByText('已通过').waitFor();
      await page.getByText('备案已通过，可以发送国内短信、彩信和语音。').waitFor();

      // The certification mark, until certification is built.
      await ops.page.goto(`${herald.url}/admin/accounts`);
      await ops.page.getByTestId('admin-accounts-search').locator('input').fill(customer.userName);
      await ops.page.getByTestId('admin-accounts-search').locator('input').press('Enter');
      const account = ops.page.locator(`tr[data-user-name="${customer.userName}"]`);
      await account.locator('.admin-account-certification').getByText('未认证').waitFor();
      await account.getByTestId('admin-account-certify').click();
      const modal = ops.page.locator('.ant-modal:visible');
      await modal.locator('.admin-certification-choice').getByText('企业认证').click();
      await confirm(
        ops.page,
        ops.page.getByTestId('admin-certification-save'),
        'admin-certification-save-confirm',
      );
      await account.locator('.admin-account-certification').getByText('企业认证').waitFor();
    } finally {
      await ops.close();
    }
  }));
