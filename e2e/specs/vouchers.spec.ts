import { after, before, test } from 'node:test';
import { AccountsService } from '../../server/src/core/accounts/accounts.service.ts';
import { LedgerService } from '../../server/src/core/ledger/ledger.service.ts';
import { VouchersService } from '../../server/src/core/vouchers/vouchers.service.ts';
import { withPage } from '../harness/browser.ts';
import {
  type ConsoleTestbed,
  confirmPopconfirm,
  expectText,
  logIn,
  startConsoleTestbed,
  stopConsoleTestbed,
  waitForShell,
} from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';

/**
 * Vouchers (issue 18) in the browser, against a real Herald: a paid customer with 100 yuan and a
 * 50-yuan voucher given by the operator opens the coupon screen, uses the voucher after confirming,
 * and sees the header's balance grow to 150 yuan and the voucher marked used.
 */
let testbed: ConsoleTestbed;

before(async () => {
  testbed = await startConsoleTestbed();
  await withHeraldDatabase(testbed.herald, async (database) => {
    const { accountId } = await new AccountsService(database).findByLoginName(testbed.owner.userName);
    await database.db.updateTable('accounts').set({ plan: 'paid' }).where('id', '=', accountId).execute();
    await new LedgerService(database).adjust(null, accountId, { amountFen: 10_000, reason: 'test credit' });
    await new VouchersService(database).issue(null, { accountId, amount: '50', reason: '补偿' });
  });
});

after(() => stopConsoleTestbed(testbed ?? {}));

test('a paid customer uses a received voucher and the balance grows', (t) =>
  withPage(testbed.browser, t, async (page) => {
    const { herald, owner } = testbed;
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/accountSetting/financialMangement/charge/coupon`);
    await waitForShell(page);
    await expectText(page.getByTestId('balance').locator('strong'), '¥100.00');
    const row = page.locator('.coupons-vouchers tbody tr.ant-table-row').first();
    await expectText(row.locator('.voucher-amount'), '¥50.00');
    await expectText(row.locator('.voucher-status'), '未使用');

    await confirmPopconfirm(page, row.locator('.voucher-use'), 'voucher-use-ok');
    await expectText(row.locator('.voucher-status'), '已使用');
    await expectText(page.getByTestId('balance').locator('strong'), '¥150.00');

    await page.getByRole('tab', { name: '资源包' }).click();
    await expectText(
      page.locator('.coupons-packages .ant-empty-description'),
      '还没有资源包。资源包由平台运营方发放, 发送时优先抵扣资源包, 用完后再从余额扣费。',
    );
  }));
