import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { loadSecretKey, SecretBox } from '../../server/src/lib/secret-box.ts';
import { createSmsSender } from '../../server/test/fixtures/sms-factory.ts';
import { sign } from '../../server/test/sms/sms-fixtures.ts';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';

/**
 * SMS labels on /s_sendSetting/label: the empty list offers the first label, the form checks the
 * shared name rule, a label is renamed and, after a confirmation, deleted; email labels never
 * show here. An SMS sent through the SMS API with a label's id shows that label on the SMS
 * status screen and is found by it.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;
const smsKey = randomBytes(32).toString('base64url');
let templateId = 0;

before(async () => {
  ({ herald, browser, owner } = await startConsoleTestbed());
  await withHeraldDatabase(herald, async (database) => {
    const user = await database.db
      .selectFrom('users')
      .select('account_id')
      .where('username', '=', owner.userName)
      .executeTakeFirstOrThrow();
    const accountId = Number(user.account_id);
    const box = new SecretBox(loadSecretKey({ dataDir: herald.dataDir, secretKey: undefined }));
    ({ templateId } = await createSmsSender(database, box, { accountId, smsUser: 'label_sms', smsKey }));
    const now = Date.now();
    await database.db
      .insertInto('labels')
      .values({ account_id: accountId, channel: 'email', name: '邮件周报', created_at: now, updated_at: now })
      .execute();
  });
});

after(() => stopConsoleTestbed({ browser, herald }));

test('SMS labels are added from the empty list, renamed and deleted after a confirmation', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendSetting/label`);
    await waitForShell(page);
    const screen = page.locator('.sms-labels-page');
    await screen.getByText('短信标签', { exact: true }).waitFor();
    await screen.locator('.labels-table .ant-empty').getByText('还没有短信标签', { exact: false }).waitFor();
    assert.equal(await screen.getByText('邮件周报').count(), 0, 'email labels stay on their own screen');

    await screen.locator('.label-add-first').click();
    const dialog = page.locator('.label-form-modal');
    await dialog.locator('.label-save').click();
    await dialog.getByText('请输入标签名称').waitFor();
    await dialog.locator('input[name="labelName"]').fill('验证码');
    await dialog.locator('.label-save').click();
    await screen.locator('.labels-table').getByText('验证码').waitFor();

    await screen.locator('.label-add').click();
    await dialog.locator('input[name="labelName"]').fill('验证码');
    await dialog.locator('.label-save').click();
    await dialog.getByText('短信标签名称已存在').waitFor();
    await dialog.locator('input[name="labelName"]').fill('营销');
    await dialog.locator('.label-save').click();
    await screen.locator('.labels-table').getByText('营销').waitFor();

    await screen.locator('.label-search').locator('input').fill('营');
    await screen.locator('.label-search').locator('input').press('Enter');
    await screen.locator('.labels-table tbody tr', { hasText: '验证码' }).waitFor({ state: 'detached' });
    const row = screen.locator('.labels-table tbody tr', { hasText: '营销' });
    await row.locator('.label-edit').click();
    await dialog.locator('input[name="labelName"]').fill('营销活动');
    await dialog.locator('.label-save').click();
    await screen.locator('.labels-table').getByText('营销活动').waitFor();

    await row.locator('.label-delete').click();
    await page
      .locator('.ant-popconfirm')
      .getByText('确定删除短信标签 营销活动？', { exact: false })
      .waitFor();
    await page.locator('.ant-popconfirm .ant-btn-dangerous').click();
    await screen.locator('.labels-table').getByText('没有匹配的标签').waitFor();
  }));

test('an SMS sent with a label shows it on the SMS status screen and is found by it', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendSetting/label`);
    await waitForShell(page);
    const screen = page.locator('.sms-labels-page');
    await screen.locator('.labels-table').getByText('验证码').waitFor();
    const labelId =
      (
        await screen
          .locator('.labels-table tbody tr', { hasText: '验证码' })
          .locator('td')
          .first()
          .textContent()
      )?.trim() ?? '';

    const send = async (phone: string, label?: string) => {
      const params: Record<string, string> = {
        smsUser: 'label_sms',
        templateId: String(templateId),
        phone,
        vars: '{"code":"8080"}',
      };
      if (label) params.labelId = label;
      const res = await fetch(`${herald.url}/smsapi/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...params, signature: sign(smsKey, params) }).toString(),
      });
      return (await res.json()) as { statusCode: number; message: string };
    };
    assert.equal((await send('13800138551', labelId)).statusCode, 200);
    assert.equal((await send('13800138552')).statusCode, 200);

    await page.goto(`${herald.url}/s_sendResponse/smsStatus`);
    await waitForShell(page);
    const table = page.locator('.sms-status-table');
    const labelled = table.locator('tbody tr', { hasText: '+8613800138551' });
    await labelled.waitFor();
    assert.match((await labelled.textContent()) ?? '', /验证码/);
    await table.locator('tbody tr', { hasText: '+8613800138552' }).waitFor();

    await page.locator('.sms-status-label').click();
    await page.locator('.ant-select-dropdown').getByText('验证码').click();
    await page.locator('.sms-status-search').click();
    await table.locator('tbody tr', { hasText: '+8613800138552' }).waitFor({ state: 'detached' });
    await labelled.waitFor();
  }));
