import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { operatorUser, type TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import {
  type ConsoleTestbed,
  expectText,
  logIn,
  startConsoleTestbed,
  stopConsoleTestbed,
  waitForShell,
} from '../harness/console.ts';
import { recordTransfer } from '../harness/money.ts';

const REASON = '发票抬头须与认证的公司名称一致';

/**
 * Invoices (issue 18) in the browser, against a real Herald: a customer with a 500-yuan bank
 * transfer is sent to fill in the invoice details first (a taxpayer ID with a wrong check
 * character is refused by the shared rule), applies for a 100-yuan paper invoice by post and is
 * shown the 18-yuan postage before applying, and sees it applied; the operator rejects it on
 * /admin/invoices with a reason; the customer sees the reason, edits the amount and resubmits,
 * and the pool and balance reflect one postage.
 */
let testbed: ConsoleTestbed;
let operator: TestUser;

before(async () => {
  testbed = await startConsoleTestbed();
  const { herald, owner } = testbed;
  await recordTransfer(herald, owner, {
    amount: '500',
    remitter: 'E2E Invoice Trading Ltd',
    bankRef: 'E2E-INVOICE-1',
  });
  operator = await operatorUser(herald);
});

after(() => stopConsoleTestbed(testbed ?? {}));

test('a customer applies for an invoice, the operator rejects it, the customer resubmits', (t) =>
  withPage(testbed.browser, t, async (page) => {
    const { herald, owner } = testbed;
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/accountSetting/financialMangement/applyTicket`);
    await waitForShell(page);
    await expectText(page.locator('.invoice-apply-no-profile .ant-result-title'), '请先填写发票信息');
    await page.getByTestId('invoice-apply-to-info').click();

    await page.locator('.invoice-info-page').waitFor();
    await page.getByTestId('invoice-info-title').fill('E2E Invoice Trading Ltd');
    await page.getByTestId('invoice-info-taxpayerId').fill('91350100M000100Y42');
    await page.getByTestId('invoice-info-bankName').fill('ICBC Fuzhou Branch');
    await page.getByTestId('invoice-info-bankAccount').fill('1402 0210 0920 0123 456');
    await page.getByTestId('invoice-info-address').fill('1 Example Road, Fuzhou');
    await page.getByTestId('invoice-info-phone').fill('0591-12345678');
    await page.getByTestId('invoice-info-save').click();
    await expectText(
      page.locator('.ant-form-item-explain-error'),
      '纳税人识别号须为15、17、18或20位字母和数字; 18位统一社会信用代码的校验位不正确',
    );
    await page.getByTestId('invoice-info-taxpayerId').fill('91350100M000100Y43');
    await page.getByTestId('invoice-info-save').click();
    await page.getByTestId('invoice-info-apply').click();

    await page.locator('.invoice-apply-page').waitFor();
    await expectText(page.locator('.invoice-invoiceable'), '¥500.00');
    await page.locator('.invoice-type-ordinary').click();
    await page.getByTestId('invoice-apply-amount').fill('100');
    await expectText(page.getByTestId('invoice-apply-postage'), '邮费¥18.00，提交时从账户余额扣除。');
    await page.getByTestId('invoice-apply-recipient').fill('李雷');
    await page.getByTestId('invoice-apply-recipient-phone').fill('13800138000');
    await page.getByTestId('invoice-apply-mailing-address').fill('福州市示例路1号');
    await page.getByTestId('invoice-apply-submit').click();

    await page.waitForURL(/\/financialMangement\/ticket$/);
    await expectText(page.locator('.invoices-table .invoice-status'), '已申请(待开票)');
    await expectText(page.locator('.invoices-table .invoice-amount'), '¥100.00');

    // The operator rejects it with a reason.
    await page.context().clearCookies();
    await logIn(page.context(), herald, operator);
    await page.goto(`${herald.url}/admin/invoices`);
    await page.locator('.admin-invoices-page').waitFor();
    await page.getByTestId('admin-invoice-reject').click();
    await page.getByTestId('admin-invoice-prompt-value').fill(REASON);
    await page.locator('.admin-invoice-prompt-ok').click();
    await page.locator('.admin-invoices-page .ant-empty').waitFor();

    // The customer sees the reason and resubmits.
    await page.context().clearCookies();
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/accountSetting/financialMangement/ticket`);
    await waitForShell(page);
    await expectText(page.locator('.invoices-table .invoice-status'), '已驳回');
    await expectText(page.locator('.invoice-reject-reason'), `驳回原因：${REASON}`);
    await page.getByTestId('invoice-resubmit').click();
    await expectText(page.locator('.invoice-apply-reject-reason .ant-alert-title'), `驳回原因：${REASON}`);
    await expectText(page.locator('.invoice-invoiceable'), '¥500.00');
    await page.getByTestId('invoice-apply-amount').fill('200');
    await page.getByTestId('invoice-apply-submit').click();
    await page.waitForURL(/\/financialMangement\/ticket$/);
    await expectText(page.locator('.invoices-table .invoice-status'), '已申请(待开票)');
    await expectText(page.locator('.invoices-table .invoice-amount'), '¥200.00');

    const summary = await fetch(`${herald.url}/v3/api/order/billTicketOrders/summary`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const { data } = (await summary.json()) as { data: { invoiceableFen: number; balanceFen: number } };
    assert.deepEqual([data.invoiceableFen, data.balanceFen], [30_000, 50_000 - 1800]);
  }));
