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
 * SMS link tracking on the console: a free account is told the function is for paid users; once
 * paid it turns tracking on, a tracked template's SMS reaches the carrier with a short link, a
 * click on it redirects to the shop, and the click shows on the link clicks and click data
 * screens while a preview's fetch is kept apart as a machine's.
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
  sender = await smsSenderOf(herald, owner, 'links_sms');
  await withHeraldDatabase(herald, (database) =>
    database.db
      .updateTable('sms_templates')
      .set({ content: '您的订单已发货，详情 https://shop.example.com/o?id=%code% 请查看。', track_links: 1 })
      .where('id', '=', sender.templateId)
      .execute(),
  );
});

after(() => stopConsoleTestbed({ browser, herald }, carrier));

test('a free account is told to upgrade; a paid one tracks a click from the carrier to the screens', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendSetting/track`);
    await waitForShell(page);
    await page.locator('.sms-track-paid-only').getByText('该功能仅对付费用户开放').waitFor();

    await withHeraldDatabase(herald, (database) =>
      database.db.updateTable('accounts').set({ plan: 'paid' }).where('id', '=', sender.accountId).execute(),
    );
    await page.reload();
    await waitForShell(page);
    await page.locator('.sms-track-switch').click();
    await page.getByText('短信链接追踪已开启').waitFor();
    await new Promise((resolve) => setTimeout(resolve, 5_500)); // sending reads the switch through a 5 s cache

    await sender.send('13800138901');
    const [sms] = await carrier.waitForMessages(1, 15_000);
    const link = /(http\S+\/s\/[0-9A-Za-z]+)/.exec(sms?.text ?? '')?.[1];
    assert.ok(link, sms?.text);
    // The testbed's public URL is not where it listens: ask its HTTP port for the link's path.
    const visit = `${herald.url}${new URL(link).pathname}`;
    const preview = await fetch(visit, { redirect: 'manual', headers: { 'user-agent': 'WhatsApp/2.23' } });
    assert.equal(preview.headers.get('location'), 'https://shop.example.com/o?id=4321');
    await withHeraldDatabase(herald, (database) =>
      database.db
        .updateTable('sms_short_links')
        .set({ created_at: Date.now() - 60_000 })
        .execute(),
    );
    const person = await fetch(visit, {
      redirect: 'manual',
      headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Mobile Safari/537.36' },
    });
    assert.equal(person.status, 302);

    await page.goto(`${herald.url}/s_sendResponse/linkClick`);
    await waitForShell(page);
    const rows = page.locator('.sms-link-clicks-table tr.ant-table-row');
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    assert.equal(await page.locator('.sms-link-clicks-table .sms-link-machine').count(), 1);

    await page.goto(`${herald.url}/s_data/clickData`);
    await waitForShell(page);
    await page.locator('.sms-click-data-page [data-chart-ready="true"]').waitFor();
    const total = (key: string) =>
      page.locator(`.sms-day-total-${key} .ant-statistic-content-value`).textContent();
    assert.deepEqual(
      [await total('clicks'), await total('uniquePhones'), await total('machine')],
      ['1', '1', '1'],
    );
  }));
