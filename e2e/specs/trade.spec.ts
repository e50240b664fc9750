import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { statDay } from '@herald/shared';
import { LedgerService } from '../../server/src/core/ledger/ledger.service.ts';
import { withPage } from '../harness/browser.ts';
import {
  type ConsoleTestbed,
  expectText,
  logIn,
  startConsoleTestbed,
  stopConsoleTestbed,
  waitForShell,
} from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';
import { recordTransfer } from '../harness/money.ts';

/**
 * Trade records and bills (issue 18) in the browser, against a real Herald: an operator records
 * a 500-yuan bank transfer for the account, 1,000 mails are delivered and charged by result
 * (1 yuan at the seeded email price); the trade table shows the charge and the recharge with the
 * balance after each, its export downloads that CSV, and this month's bill shows the figures.
 */
let testbed: ConsoleTestbed;

before(async () => {
  testbed = await startConsoleTestbed();
  const { herald, owner } = testbed;
  const accountId = await recordTransfer(herald, owner, {
    amount: '500',
    remitter: 'E2E Trading Ltd',
    bankRef: 'E2E-TRADE-1',
  });
  await withHeraldDatabase(herald, async (database) => {
    const at = Date.now();
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      account_id: accountId,
      kind: 'deliver' as const,
      at,
      message_id: 1,
      recipient_id: i + 1,
      email_id: `e2e-trade-${i}`,
      recipient: `r${i}@example.org`,
      recipient_domain: 'example.org',
      api_user_id: null,
      label_id: null,
      sub_status: null,
      reason: null,
      latency_ms: null,
      data: null,
    }));
    for (let i = 0; i < rows.length; i += 250) {
      await database.db
        .insertInto('mail_events')
        .values(rows.slice(i, i + 250))
        .execute();
    }
    // Herald's own worker may charge them first; either way they are charged once.
    const ledger = new LedgerService(database);
    while ((await ledger.chargeMail(5000)) > 0) {}
  });
});

after(() => stopConsoleTestbed(testbed ?? {}));

test('the trade table shows a recharge and a charge with balances, and exports them', (t) =>
  withPage(testbed.browser, t, async (page) => {
    const { herald, owner } = testbed;
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/accountSetting/trade`);
    await waitForShell(page);
    const rows = page.locator('.trade-records tbody tr.ant-table-row');
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    await expectText(rows.nth(0).locator('.trade-amount'), '-¥1.00');
    await expectText(rows.nth(0).locator('.trade-balance-after'), '¥499.00');
    await expectText(rows.nth(0).locator('td').nth(1), '消费');
    await expectText(rows.nth(1).locator('.trade-amount'), '+¥500.00');
    await expectText(rows.nth(1).locator('.trade-balance-after'), '¥500.00');
    await expectText(rows.nth(1).locator('td').nth(1), '充值');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('.trade-export').click(),
    ]);
    assert.match(download.suggestedFilename(), /^trade-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await readFile((await download.path()) ?? '', 'utf8');
    const lines = text.split('\r\n');
    assert.equal(lines[0], '\uFEFF交易时间,类型,金额(元),余额(元),产品,计费日期,数量,订单号,说明');
    assert.match(
      lines[1] as string,
      new RegExp(`,消费,-1\\.00,499\\.00,"邮件[^"]*",${statDay(Date.now())},1000,,`),
    );
    assert.match(lines[2] as string, /,充值,500\.00,500\.00,,,,OFFE2E_TRADE_1,Bank transfer$/);
  }));

test("the bill screen shows this month's figures", (t) =>
  withPage(testbed.browser, t, async (page) => {
    const { herald, owner } = testbed;
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/accountSetting/bill`);
    await waitForShell(page);
    await expectText(page.locator('.bill-opening .ant-statistic-content-value'), '¥0.00');
    await expectText(page.locator('.bill-rechargedTotal .ant-statistic-content-value'), '¥500.00');
    await expectText(page.locator('.bill-chargedTotal .ant-statistic-content-value'), '¥1.00');
    await expectText(page.locator('.bill-closing .ant-statistic-content-value'), '¥499.00');
    const product = page.locator('.bill-products tbody tr.ant-table-row').first();
    await expectText(product.locator('td').nth(0), '邮件(送达、软退信、无效地址), 每千封');
    await expectText(product.locator('td').nth(1), '1000');
    await expectText(product.locator('td').nth(2), '¥1.00');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('.bill-export').click(),
    ]);
    const text = await readFile((await download.path()) ?? '', 'utf8');
    const month = statDay(Date.now()).slice(0, 7);
    assert.ok(text.startsWith('\uFEFF月份,项目,数量,金额(元)\r\n'));
    assert.match(text, new RegExp(`${month},期末余额,,499\\.00\\r\\n`));
  }));
