import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser, Page } from 'playwright-core';
import { SessionsService } from '../../server/src/core/sessions/sessions.service.ts';
import { createSmsSign } from '../../server/test/fixtures/sms-factory.ts';
import type { TestUser } from '../harness/accounts.ts';
import { openPage, withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';

/**
 * SMS templates against a real Herald: a customer whose account has a passed signature writes an
 * SMS template with a variable, sees a content rule refuse brackets, the live counter and the
 * handset preview, saves and submits it; the platform operator finds it in the one review list of
 * /admin/templates with its signature and example in place and passes it; the customer sees it
 * passed. The count-test screen counts a 71-character Chinese text as 2 parts.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;
let operator: TestUser;

before(async () => {
  ({ herald, browser, owner } = await startConsoleTestbed());
  operator = await operatorUser(herald);
  await withHeraldDatabase(herald, async (database) => {
    const user = await database.db
      .selectFrom('users')
      .select('account_id')
      .where('username', '=', owner.userName)
      .executeTakeFirstOrThrow();
    await createSmsSign(database, Number(user.account_id), { name: '赫耳墨斯' });
  });
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

const textarea = (page: Page, className: string) =>
  page.locator(`.${className} textarea, textarea.${className}`).first();
const input = (page: Page, className: string) =>
  page.locator(`.${className} input, input.${className}`).first();

test('an SMS template: written with a variable and counted, submitted, passed by the operator', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendRelative/template`);
    await waitForShell(page);
    const empty = page.locator('.sms-templates-empty');
    await empty.getByText('还没有短信模板。先新建一个模板，审核通过后即可发送。').waitFor();
    await empty.locator('.sms-template-add-sms').click();
    await page.waitForURL((url) => url.pathname === '/s_sendRelative/template/s_templateOpt');

    const editor = page.locator('.sms-template-edit-page');
    await input(page, 'sms-template-name').fill('order_code');
    await editor.locator('.sms-template-sign').click();
    await page.locator('.ant-select-dropdown').getByText('赫耳墨斯').click();

    const content = textarea(page, 'sms-template-content');
    await content.fill('【促销】您的验证码是%code%');
    await editor.getByText('内容不能包含括号字符 [ ] 【 】 ［ ］，签名由平台自动添加').waitFor();
    await content.fill('您的验证码是%code%，5分钟内有效。');
    await input(page, 'sms-template-var-code').fill('654321');

    const counter = editor.locator('.sms-count-line');
    await counter.getByText('26个字符（含签名） · 1条计费 · 每条70字 · UCS-2编码').waitFor();
    assert.equal(
      (await editor.locator('.sms-phone-text').textContent())?.trim(),
      '【赫耳墨斯】您的验证码是654321，5分钟内有效。',
    );
    await editor.locator('.sms-template-save').click();

    await page.waitForURL((url) => url.pathname === '/s_sendRelative/template');
    const row = page.locator('tr[data-template-name="order_code"]');
    await row.locator('.sms-template-status[data-status="unsubmitted"]').waitFor();
    await row.locator('.sms-template-submit').click();
    await page.locator('.sms-template-submit-ok').click();
    await row.locator('.sms-template-status[data-status="reviewing"]').waitFor();

    const { context, page: review } = await openPage(browser);
    try {
      await logIn(context, herald, operator);
      await review.goto(`${herald.url}/admin/templates`);
      await review.locator('.admin-templates-page').waitFor();
      const pending = review.locator('tr[data-sms-template-name="order_code"]');
      await pending.locator('.admin-template-kind').getByText('短信').waitFor();
      await pending.getByText(owner.userName).waitFor();
      assert.equal(
        (await pending.locator('.admin-sms-text').textContent())?.trim(),
        '【赫耳墨斯】您的验证码是654321，5分钟内有效。',
      );
      await pending.getByTestId('admin-preview').click();
      await review
        .locator('.admin-sms-preview .sms-phone-text')
        .getByText('【赫耳墨斯】您的验证码是654321，5分钟内有效。')
        .waitFor();
      await review.locator('.ant-modal-close').click();
      await pending.getByTestId('admin-approve').click();
      await review.locator('.ant-popconfirm:visible .ant-btn-primary').click();
      await pending.waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }

    await page.reload();
    await row.locator('.sms-template-status[data-status="passed"]').waitFor();
    assert.equal(
      await row.locator('.sms-template-submit').count(),
      0,
      'a passed template is not submitted again',
    );
  }));

test('the count-test screen counts a 71-character Chinese text as 2 parts of 67', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendRelative/template/countTest`);
    await waitForShell(page);
    await textarea(page, 'sms-count-text').fill('好'.repeat(71));
    const result = page.locator('.sms-count-result');
    await result.locator('.sms-count-parts').getByText('2', { exact: true }).waitFor();
    assert.equal(await result.locator('.sms-count-characters').textContent(), '71');
    assert.equal(await result.locator('.sms-count-per-part').textContent(), '67');
    assert.equal(await result.locator('.sms-count-encoding').textContent(), 'UCS-2编码');

    await textarea(page, 'sms-count-text').fill('好'.repeat(70));
    await result.locator('.sms-count-parts').getByText('1', { exact: true }).waitFor();
    await input(page, 'sms-count-sign').fill('赫耳墨斯');
    await result.locator('.sms-count-parts').getByText('2', { exact: true }).waitFor();
    assert.equal(await result.locator('.sms-count-characters').textContent(), '76');
  }));
