import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { type Herald, type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { SmsCarriersService } from '../../server/src/core/sms-carriers/sms-carriers.service.ts';
import { loadSecretKey, SecretBox } from '../../server/src/lib/secret-box.ts';
import { createSmsSender } from '../../server/test/fixtures/sms-factory.ts';
import { startReceiver } from '../../server/test/webhooks/receiver.ts';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';

/**
 * The SMS test send and status screens against a real Herald and a loopback SMPP carrier: the
 * form's phone rule, the SMS at the carrier with its signature and variable, and its receipt
 * turning it to delivered on /s_sendResponse/smsStatus. Without an SMS_USER the test send says
 * what to do first.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;
let carrier: SmppCarrier;

before(async () => {
  carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 20 });
  ({ herald, browser, owner } = await startConsoleTestbed({ HERALD_WEBHOOK_ALLOW_PRIVATE: '1' }));
});

after(() => stopConsoleTestbed({ browser, herald }, carrier));

test('an SMS test send reaches the carrier and shows as delivered on the status screen', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendRelative/test`);
    await waitForShell(page);
    await page.locator('.sms-test-page').getByText('测试发送短信需要一个SMS_USER。').waitFor();

    await withHeraldDatabase(herald, async (database) => {
      const user = await database.db
        .selectFrom('users')
        .select('account_id')
        .where('username', '=', owner.userName)
        .executeTakeFirstOrThrow();
      const box = new SecretBox(loadSecretKey({ dataDir: herald.dataDir, secretKey: undefined }));
      await createSmsSender(database, box, {
        accountId: Number(user.account_id),
        smsUser: 'console_sms',
        smsKey: randomBytes(32).toString('base64url'),
      });
      const carriers = new SmsCarriersService(database, box);
      await carriers.save({
        name: 'peer',
        url: `smpp://127.0.0.1:${carrier.port}`,
        systemId: 'herald',
        password: 'secret',
      });
      await carriers.addRoute({ carrier: 'peer', country: 'CN' });
    });

    await page.reload();
    await waitForShell(page);
    const form = page.locator('.sms-test-page');
    await form.locator('.sms-test-template').click();
    await page.locator('.ant-select-dropdown').getByText('console_sms_code').click();
    await form.locator('.sms-test-var-code input, input.sms-test-var-code').fill('6789');
    await form.locator('.sms-test-phones input, input.sms-test-phones').fill('12345');
    await form.locator('.sms-test-send').click();
    await form.getByText('手机号格式不正确').waitFor();
    assert.equal(
      (await form.locator('.sms-test-preview').textContent())?.trim(),
      '【赫耳墨斯】您的验证码是6789，5分钟内有效。',
    );

    await form.locator('.sms-test-phones input, input.sms-test-phones').fill('13800138600');
    await form.locator('.sms-test-send').click();
    await page.locator('.sms-test-result').getByText('已受理：1条短信').waitFor();
    const [sms] = await carrier.waitForMessages(1, 15_000);
    assert.equal(sms?.text, '【赫耳墨斯】您的验证码是6789，5分钟内有效。');
    assert.equal(sms?.destination, '8613800138600');

    await page.locator('.sms-test-result a').click();
    await page.locator('.sms-status-page').waitFor();
    const row = page.locator('.sms-status-table tbody tr', { hasText: '+8613800138600' });
    for (let i = 0; i < 20 && !(await row.locator('.sms-status-delivered').count()); i++) {
      await page.waitForTimeout(300);
      await page.locator('.sms-status-search').click();
    }
    await row.locator('.sms-status-delivered').waitFor();
    assert.match((await row.textContent()) ?? '', /发送成功/);
    assert.match((await row.textContent()) ?? '', /console_sms/);

    // The day's figures on the send data screen.
    await page.goto(`${herald.url}/s_data/s_send`);
    await waitForShell(page);
    await page.locator('.sms-data-totals .sms-total-requested').waitFor();
    assert.equal(await page.locator('.sms-total-requested').textContent(), '1');
    assert.equal(await page.locator('.sms-total-delivered').textContent(), '1');
    assert.equal(await page.locator('.sms-total-billedParts').textContent(), '1');
  }));

test('the anti-bombing limits are checked by the shared rule and saved', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendSetting/attack`);
    await waitForShell(page);
    const minute = page.locator('.sms-attack-minute input');
    await minute.waitFor();
    assert.equal(await minute.inputValue(), '3');
    await minute.fill('30');
    await page.locator('.sms-attack-day input').fill('10');
    await page.locator('.sms-attack-save').click();
    await page.getByText('每分钟上限不能大于每天上限').waitFor();
    await minute.fill('2');
    await page.locator('.sms-attack-save').click();
    await page.getByText('已保存').waitFor();
    await page.reload();
    await waitForShell(page);
    await page.locator('.sms-attack-minute input').waitFor();
    assert.equal(await page.locator('.sms-attack-minute input').inputValue(), '2');
    assert.equal(await page.locator('.sms-attack-day input').inputValue(), '10');
  }));

test('an SMSHook is added after its URL answered a signed sample, tested, and deleted after a confirmation', (t) =>
  withPage(browser, t, async (page) => {
    const receiver = await startReceiver('/smshook');
    try {
      await logIn(page.context(), herald, owner);
      await page.goto(`${herald.url}/s_sendSetting/smsHook`);
      await waitForShell(page);
      await page.locator('.sms-hooks-table .ant-empty').waitFor();
      await page.locator('.sms-hooks-page .sms-hook-add').first().click();
      const modal = page.locator('.sms-hook-modal');
      await modal.locator('input.sms-hook-url').fill('ftp://nope');
      await page.locator('.sms-hook-save').click();
      await modal.locator('.ant-form-item-explain-error').first().waitFor();
      await modal.locator('input.sms-hook-url').fill(receiver.url);
      await modal.locator('input.sms-hook-app-key').fill('hook_key_0123456789abcdef');
      await page.locator('.sms-hook-save').click();
      const row = page.locator('.sms-hooks-table tbody tr', { hasText: receiver.url });
      await row.waitFor();
      assert.ok(
        receiver.pushes.some((p) => p.fields.test === 'true'),
        'the URL got a signed sample on save',
      );
      await row.locator('.sms-hook-normal').waitFor();

      await row.locator('.sms-hook-test').click();
      await page.getByText(/接收端在 \d+ 毫秒内返回 200/).waitFor();

      await row.locator('.sms-hook-delete').click();
      await page
        .locator('.ant-popconfirm')
        .getByText('确定删除该 SMSHook？尚未推送的事件将被丢弃。')
        .waitFor();
      await page.locator('.ant-popconfirm .ant-btn-primary').click();
      await page.locator('.sms-hooks-table .ant-empty').waitFor();
    } finally {
      await receiver.close();
    }
  }));

test('numbers are added to the interception list with the shared rule, and removed after a confirmation; keywords too', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendResponse/interceptor`);
    await waitForShell(page);
    const list = page.locator('.sms-blocks-block');
    await list.locator('.sms-blocks-table .ant-empty').waitFor();
    await list.locator('.sms-block-add').first().click();
    const modal = page.locator('.sms-block-modal');
    await modal.locator('textarea.sms-block-phones').fill('');
    await page.locator('.sms-block-save').click();
    await modal.getByText('请填写1到200个手机号，用分号、逗号或换行隔开').waitFor();
    await modal.locator('textarea.sms-block-phones').fill('13800138811\n13800138812');
    await modal.locator('input.sms-block-reason').fill('投诉');
    await page.locator('.sms-block-save').click();
    await page.getByText('已添加2个号码').waitFor();
    const row = list.locator('.sms-blocks-table tbody tr', { hasText: '+8613800138811' });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /投诉.*手动添加.*直到移除/);

    await row.locator('.sms-block-delete').click();
    await page.locator('.ant-popconfirm').getByText('确定从名单中移除该号码？').waitFor();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await row.waitFor({ state: 'detached' });
    await list.locator('.sms-blocks-table tbody tr', { hasText: '+8613800138812' }).waitFor();

    await page.locator('input.sms-keyword-input').fill('贷款');
    await page.locator('.sms-keyword-add').click();
    await page.locator('.sms-keyword', { hasText: '贷款' }).waitFor();
  }));
