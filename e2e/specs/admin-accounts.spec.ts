import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser, Locator, Page } from 'playwright-core';
import { quotaDay } from '../../server/src/core/send/quota.ts';
import { createTestUser, type TestUser } from '../harness/accounts.ts';
import { launchBrowser, openPage, withPage } from '../harness/browser.ts';
import { logIn, toasts, waitForShell } from '../harness/console.ts';
import { solveSlider } from '../harness/human-checks.ts';
import { sendMail, writeSendingSetup } from '../harness/sending.ts';

/**
 * Plans and quotas an operator controls (issue 16), against a real Herald: a free customer sends
 * 3 mails and its dashboard says "today 3 of 10"; the operator logs in, finds the account in
 * /admin/accounts, grants a temporary increase (a second one is refused with the server's
 * reason), sets the paid plan with a daily quota of 20, each after a confirmation; the table and
 * the customer's dashboard show the new limit. Customers cannot open the screen.
 */
const OPERATOR_PASSWORD = 'Operator#2026';
let herald: Herald;
let browser: Browser;
let customer: TestUser;

before(async () => {
  [herald, browser] = await Promise.all([
    startHerald({
      env: {
        HERALD_ADMIN_PASSWORD: OPERATOR_PASSWORD,
        HERALD_ADMIN_EMAIL: 'ops@example.com',
        // A console built elsewhere, as startConsoleTestbed allows.
        ...(process.env.HERALD_CONSOLE_DIR ? { HERALD_CONSOLE_DIR: process.env.HERALD_CONSOLE_DIR } : {}),
      },
    }),
    launchBrowser(),
  ]);
  customer = await createTestUser(herald);
  const credentials = await writeSendingSetup(herald, customer, {
    domain: `mail.plans-${process.pid}.example`,
    apiUser: `plans_${process.pid}`,
  });
  const sent = await sendMail(herald, credentials, {
    from: `news@mail.plans-${process.pid}.example`,
    to: 'a@example.invalid;b@example.invalid;c@example.invalid',
    subject: 'Quota',
    html: '<p>Quota</p>',
  });
  assert.equal(sent.statusCode, 200, sent.message);
});

after(async () => {
  await browser?.close();
  await herald?.stop();
});

async function operatorPage(): Promise<{ page: Page; close: () => Promise<void> }> {
  const { context, page } = await openPage(browser);
  await page.goto(`${herald.url}/login`);
  await page.locator('#username').fill('admin');
  await page.locator('#password').fill(OPERATOR_PASSWORD);
  await solveSlider(page, herald);
  await page.getByTestId('login-submit').click();
  await waitForShell(page);
  await page.goto(`${herald.url}/admin/accounts`);
  await page.locator('.admin-accounts-page').waitFor();
  return { page, close: () => context.close() };
}

/** Waits until the newest modal has finished opening (its animation can swallow a click). */
async function modalOpen(page: Page): Promise<void> {
  await page
    .locator('.ant-modal')
    .last()
    .evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
}

async function confirmSave(page: Page, testId: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.locator(`.ant-popconfirm:visible .${testId}-confirm`).click();
}

const cell = (row: Locator, className: string) => row.locator(`.${className}`);

test('the operator grants a temporary increase and sets plan and quota; the dashboard shows today n of m', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, customer);
    await page.goto(`${herald.url}/backend/dashborad`);
    await waitForShell(page);
    await page.locator('.dashboard-quota-text').getByText('今日已发送3封，共10封').waitFor();

    const tomorrow = quotaDay(Date.now() + 86_400_000);
    const operator = await operatorPage();
    try {
      const ops = operator.page;
      await ops.getByTestId('admin-accounts-search').locator('input').fill(customer.userName);
      await ops.getByTestId('admin-accounts-search').locator('input').press('Enter');
      const row = ops.locator(`tr[data-user-name="${customer.userName}"]`);
      await cell(row, 'admin-account-usage').getByText('3 / 10').waitFor();
      assert.equal(await cell(row, 'admin-account-plan').textContent(), '免费');
      assert.equal(await cell(row, 'admin-account-quota').textContent(), '套餐默认');
      await cell(row, 'admin-account-raise').getByText('本月已用0/2次').waitFor();
      assert.equal(await ops.locator('.admin-accounts-page tbody tr.ant-table-row').count(), 1);

      // A temporary increase: the shared rule first, then a confirmation naming it.
      await row.getByTestId('admin-account-raise').click();
      await ops.getByTestId('admin-raise-extra').waitFor();
      await modalOpen(ops);
      await ops.getByTestId('admin-raise-extra').fill('0');
      await ops.getByTestId('admin-raise-save').click();
      await ops.getByText('临时提额为每日1-1000000封的整数').waitFor();
      await ops.getByTestId('admin-raise-extra').fill('5');
      await ops.getByTestId('admin-raise-save').click();
      await ops
        .locator('.ant-popconfirm:visible')
        .getByText(`为${customer.userName}在今天和明天每日增加5封发送额度？`)
        .waitFor();
      await ops.locator('.ant-popconfirm:visible .admin-raise-save-confirm').click();
      await ops.getByTestId('admin-raise-extra').waitFor({ state: 'detached' });
      await cell(row, 'admin-account-usage').getByText('3 / 15').waitFor();
      await cell(row, 'admin-account-raise').getByText(`每日+5封，至${tomorrow}`).waitFor();
      await cell(row, 'admin-account-raise').getByText('本月已用1/2次').waitFor();

      // A second one while the first runs: the server refuses and the screen says why.
      await row.getByTestId('admin-account-raise').click();
      await ops.getByTestId('admin-raise-extra').waitFor();
      await modalOpen(ops);
      await ops.getByTestId('admin-raise-extra').fill('50');
      await confirmSave(ops, 'admin-raise-save');
      await toasts(ops, 'error')
        .getByText(`该账号已有生效中的临时提额(每日+5封, 至${tomorrow}), 到期后才能再次提额`)
        .waitFor();
      await ops.locator('.ant-modal-close').last().click();
      await ops.getByTestId('admin-raise-extra').waitFor({ state: 'detached' });

      // Paid plan with a daily quota of 20: the increase still adds its 5.
      await row.getByTestId('admin-account-limits').click();
      await ops.getByTestId('admin-limits-quota').waitFor();
      await modalOpen(ops);
      await ops.getByTestId('admin-limits-plan').getByText('付费').click();
      await ops.getByTestId('admin-limits-quota').fill('20');
      await ops.getByTestId('admin-limits-save').click();
      await ops
        .locator('.ant-popconfirm:visible')
        .getByText(`将${customer.userName}设为付费套餐，每日额度为20？立即生效。`)
        .waitFor();
      await ops.locator('.ant-popconfirm:visible .admin-limits-save-confirm').click();
      await ops.getByTestId('admin-limits-quota').waitFor({ state: 'detached' });
      await cell(row, 'admin-account-usage').getByText('3 / 25').waitFor();
      assert.equal(await cell(row, 'admin-account-plan').textContent(), '付费');
      assert.equal(await cell(row, 'admin-account-quota').textContent(), '20');

      // The same screen in English.
      await ops.goto(`${herald.url}/admin/accounts?lang=en`);
      await ops.locator('.admin-accounts-page').getByText('Plans and quotas').waitFor();
      const enRow = ops.locator(`tr[data-user-name="${customer.userName}"]`);
      await cell(enRow, 'admin-account-usage').getByText('3 of 25').waitFor();
      await cell(enRow, 'admin-account-raise').getByText(`+5 a day until ${tomorrow}`).waitFor();
      assert.equal(await cell(enRow, 'admin-account-plan').textContent(), 'Paid');
    } finally {
      await operator.close();
    }

    await page.reload();
    await waitForShell(page);
    await page.locator('.dashboard-quota-text').getByText('今日已发送3封，共25封').waitFor();
    await page
      .locator('.dashboard-quota-raise')
      .getByText(`含临时提额每日5封，至${tomorrow}（北京时间）`)
      .waitFor();
  }));

test('the operator moves between the /admin screens by the nav above them', async () => {
  const { page, close } = await operatorPage();
  try {
    const nav = page.locator('.admin-nav');
    await nav.getByText('模板审核（运营）').click();
    await page.waitForURL((url) => url.pathname === '/admin/templates');
    await page.locator('.admin-templates-page').waitFor();
    await page.locator('.admin-nav').getByText('套餐与额度（运营）').click();
    await page.locator('.admin-accounts-page').waitFor();
  } finally {
    await close();
  }
});

test('customers cannot open /admin/accounts: the guard sends them to the deny page', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, customer);
    await page.goto(`${herald.url}/admin/accounts`);
    await page.waitForURL((url) => url.pathname === '/backend/deny');
  }));
