import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Herald, type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';
import { type SmsSender, smsSenderOf, writeSmsCarrier } from '../harness/sms.ts';

/**
 * An anti-bombing pause handled from the console: a verification-code template sends past the
 * account's maximum through the SMS API, the SMS dashboard's alert panel names it, the attack
 * screen's pause records show what it holds, and "continue" sends the held SMS to the loopback
 * carrier. The guard's settings are changed on the same screen.
 */

let herald: Herald;
let browser: Browser;
let owner: TestUser;
let carrier: SmppCarrier;
let sender: SmsSender;

before(async () => {
  carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 20 });
  ({ herald, browser, owner } = await startConsoleTestbed());
  await writeSmsCarrier(herald, carrier);
  sender = await smsSenderOf(herald, owner, 'pause_sms');
  await withHeraldDatabase(herald, (database) =>
    database.db
      .insertInto('sms_frequency_limits')
      .values({
        account_id: sender.accountId,
        per_minute: 3,
        per_day: 20,
        template_max: 2,
        updated_at: Date.now(),
      })
      .execute(),
  );
});

after(() => stopConsoleTestbed({ browser, herald }, carrier));

test('a paused template is named on the dashboard and continued from the attack screen', (t) =>
  withPage(browser, t, async (page) => {
    for (const phone of ['13800138701', '13800138702', '13800138703', '13800138704'])
      await sender.send(phone);
    await carrier.waitForMessages(2, 15_000);

    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/backend/dashborad`);
    await waitForShell(page);
    await page
      .locator('.dashboard-sms-pause-banner')
      .getByText('1个短信模板被防轰炸暂停，暂存2条短信')
      .waitFor();

    await page.goto(`${herald.url}/backend/s_dashborad`);
    await waitForShell(page);
    const panel = page.locator('.dashboard-sms-alerts');
    await panel.locator('.dashboard-sms-alert').getByText('暂存2条短信').waitFor();
    await panel.locator('.dashboard-sms-alerts-handle').click();
    await page.waitForURL(/\/s_sendSetting\/attack/);

    const row = page.locator('.sms-pauses-table tr.ant-table-row').first();
    await row.locator('.sms-pause-status').getByText('已暂停').waitFor();
    assert.equal((await row.locator('.sms-pause-count').textContent())?.trim(), '2');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(carrier.messages.length, 2, 'the held SMS wait');

    await row.locator('.sms-pause-continue').click();
    await page.locator('.ant-popconfirm').getByText('立即发送暂存的2条短信？').waitFor();
    await page.locator('.sms-pause-continue-ok').click();
    await row.locator('.sms-pause-status').getByText('已继续').waitFor();
    await carrier.waitForMessages(4, 15_000);
    assert.deepEqual(carrier.messages.map((m) => m.destination).sort(), [
      '8613800138701',
      '8613800138702',
      '8613800138703',
      '8613800138704',
    ]);

    await page.goto(`${herald.url}/backend/s_dashborad`);
    await waitForShell(page);
    await page.locator('.dashboard-sms-alerts').getByText('暂无被暂停的模板').waitFor();
  }));

test("the template guard's settings are checked by the shared rule and saved", (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendSetting/attack`);
    await waitForShell(page);
    const max = page.locator('input.sms-attack-max, .sms-attack-max input').first();
    await max.waitFor();
    assert.equal(await max.inputValue(), '2');
    const window = page.locator('input.sms-attack-window, .sms-attack-window input').first();
    await window.fill('90');
    await page.locator('.sms-attack-save').click();
    await page.getByText('请输入1到60之间的整数（分钟）').waitFor();
    await window.fill('30');
    await max.fill('500');
    await page.locator('.sms-attack-save').click();
    await page.getByText('已保存').first().waitFor();
    await withHeraldDatabase(herald, async (database) => {
      const row = await database.db
        .selectFrom('sms_frequency_limits')
        .select(['template_window', 'template_max', 'template_guard'])
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        [Number(row.template_window), Number(row.template_max), Number(row.template_guard)],
        [30, 500, 1],
      );
    });
  }));
