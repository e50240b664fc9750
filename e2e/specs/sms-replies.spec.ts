import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Herald, type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';
import { type SmsSender, smsSenderOf, writeSmsCarrier } from '../harness/sms.ts';

/**
 * Replies on the console: an SMS goes out through the SMS API to the loopback carrier, the
 * handset answers (a deliver_sm from the peer to the service code and the account's extension),
 * and the uplink replies screen shows the answer and the opt-out; the reply data screen counts
 * them; the unsubscribe list holds the number.
 */

let herald: Herald;
let browser: Browser;
let owner: TestUser;
let carrier: SmppCarrier;
let sender: SmsSender;

before(async () => {
  carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 20 });
  ({ herald, browser, owner } = await startConsoleTestbed());
  await writeSmsCarrier(herald, carrier, { sourceAddr: '10690001' });
  sender = await smsSenderOf(herald, owner, 'reply_sms');
});

after(() => stopConsoleTestbed({ browser, herald }, carrier));

test('a reply and an opt-out show on the uplink replies and reply data screens', (t) =>
  withPage(browser, t, async (page) => {
    await sender.send('13800138801');
    await sender.send('13800138802');
    await carrier.waitForMessages(2, 15_000);
    assert.ok(carrier.sendMo('8613800138801', `10690001${sender.accountId}`, '好的，明天见'));
    assert.ok(carrier.sendMo('8613800138802', `10690001${sender.accountId}`, '退订'));

    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/s_sendResponse/smsResponse`);
    await waitForShell(page);
    const table = page.locator('.sms-replies-table');
    await table.getByText('好的，明天见').waitFor();
    const optOut = table.locator('tr.ant-table-row', { hasText: '+8613800138802' });
    await optOut.locator('.sms-reply-opt-out').getByText('退订').waitFor();

    await page.goto(`${herald.url}/s_data/replay`);
    await waitForShell(page);
    await page.locator('.sms-reply-data-page [data-chart-ready="true"]').waitFor();
    assert.equal(
      (await page.locator('.sms-day-total-replies .ant-statistic-content-value').textContent())?.trim(),
      '2',
    );
    assert.equal(
      (await page.locator('.sms-day-total-optOuts .ant-statistic-content-value').textContent())?.trim(),
      '1',
    );

    await page.goto(`${herald.url}/s_sendResponse/unsubscribe`);
    await waitForShell(page);
    await page.getByText('+8613800138802').waitFor();
  }));
