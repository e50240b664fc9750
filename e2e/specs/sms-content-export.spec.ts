import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { type Herald, type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { SmsCarriersService } from '../../server/src/core/sms-carriers/sms-carriers.service.ts';
import { loadSecretKey, SecretBox } from '../../server/src/lib/secret-box.ts';
import { createSmsSender } from '../../server/test/fixtures/sms-factory.ts';
import { sign } from '../../server/test/sms/sms-fixtures.ts';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';

/**
 * SMS content view and SMS status exports on the console: a free account is told the view is
 * for paid users; once paid it turns the view on, an SMS sent through the SMS API shows its text
 * on the status screen, an export asked for there becomes ready on the SMS offline screen (the
 * worker role writes it) and downloads with the text; turned off (confirmed), the text is gone.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;
let carrier: SmppCarrier;
const smsKey = randomBytes(32).toString('base64url');
const SMS_USER = 'content_sms';
const PHONE = '13800138761';
let templateId = 0;
let accountId = 0;

before(async () => {
  carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 20 });
  ({ herald, browser, owner } = await startConsoleTestbed());
  await withHeraldDatabase(herald, async (database) => {
    const user = await database.db
      .selectFrom('users')
      .select('account_id')
      .where('username', '=', owner.userName)
      .executeTakeFirstOrThrow();
    accountId = Number(user.account_id);
    const box = new SecretBox(loadSecretKey({ dataDir: herald.dataDir, secretKey: undefined }));
    ({ templateId } = await createSmsSender(database, box, { accountId, smsUser: SMS_USER, smsKey }));
    const carriers = new SmsCarriersService(database, box);
    await carriers.save({
      name: 'peer',
      url: `smpp://127.0.0.1:${carrier.port}`,
      systemId: 'herald',
      password: 'secret',
    });
    await carriers.addRoute({ carrier: 'peer', country: 'CN' });
  });
});

after(() => stopConsoleTestbed({ browser, herald }, carrier));

async function sendSms(phone: string, code: string): Promise<void> {
  const params = { smsUser: SMS_USER, templateId: String(templateId), phone, vars: JSON.stringify({ code }) };
  const res = await fetch(`${herald.url}/smsapi/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...params, signature: sign(smsKey, params) }).toString(),
  });
  const body = (await res.json()) as { statusCode: number };
  assert.equal(body.statusCode, 200, JSON.stringify(body));
}

test('a paid account sees an SMS’s text on the status screen and in its export on the offline screen', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendSetting/smsContent`);
    await waitForShell(page);
    await page.locator('.sms-content-paid-only').getByText('该功能仅对付费用户开放').waitFor();
    assert.equal(await page.locator('.sms-content-switch').isDisabled(), true);

    await withHeraldDatabase(herald, (database) =>
      database.db.updateTable('accounts').set({ plan: 'paid' }).where('id', '=', accountId).execute(),
    );
    await page.reload();
    await waitForShell(page);
    await page.locator('.sms-content-switch:not([disabled])').click();
    await page.getByText('短信内容查看已开启').waitFor();

    await sendSms(PHONE, '482731');
    await page.goto(`${herald.url}/s_sendResponse/smsStatus`);
    await waitForShell(page);
    const row = page.locator('.sms-status-table tbody tr', { hasText: `+86${PHONE}` });
    await row.getByText('您的验证码是482731').waitFor();

    await page.locator('.sms-status-export').click();
    await page.waitForURL(/\/s_sendResponse\/offline$/);
    const exported = page.locator('.offline-exports-sms .offline-exports-table tr.ant-table-row').first();
    await exported.getByText('短信状态').waitFor();
    await exported.locator('.export-status-using').waitFor({ timeout: 60_000 });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      exported.locator('.export-download').click(),
    ]);
    assert.match(download.suggestedFilename(), /^smsStatus-\d+-[\d-]+\.csv\.gz$/);
    const text = gunzipSync(await readFile((await download.path()) ?? '')).toString('utf8');
    assert.ok(text.startsWith('\uFEFF短信ID,手机号,'), 'a Chinese header after the BOM');
    assert.match(text, new RegExp(`\\+86${PHONE}`));
    assert.match(text, /您的验证码是482731/);
    await exported.locator('.export-status-used').waitFor();

    // The email offline screen keeps to email exports.
    await page.goto(`${herald.url}/sendResponse/offline`);
    await waitForShell(page);
    await page.locator('.offline-exports-email .ant-empty').waitFor();

    // Turned off (after a confirmation), the status screen no longer gets the text.
    await page.goto(`${herald.url}/s_sendSetting/smsContent`);
    await waitForShell(page);
    await page.locator('.sms-content-switch.ant-switch-checked').click();
    await page.locator('.sms-content-off-ok').click();
    await page.getByText('短信内容查看已关闭').waitFor();
    await page.goto(`${herald.url}/s_sendResponse/smsStatus`);
    await waitForShell(page);
    await row.locator('.sms-content-hidden').getByText('不显示').waitFor();
    assert.equal(await row.getByText('482731').count(), 0);
  }));
