import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { type Herald, type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import type { Browser, Page } from 'playwright-core';
import { createSmsSender } from '../../server/test/fixtures/sms-factory.ts';
import { sign } from '../../server/test/sms/sms-fixtures.ts';
import { operatorUser, type TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import {
  confirmPopconfirm,
  logIn,
  startConsoleTestbed,
  stopConsoleTestbed,
  toasts,
} from '../harness/console.ts';
import { withHeraldDatabase } from '../harness/database.ts';
import { heraldSecretBox } from '../harness/sms.ts';

/**
 * SMS carriers and routes in /admin (issue 20), against a real Herald and a loopback SMPP
 * carrier: the operator adds the carrier and a route on the screen (the shared rules first), sees
 * them listed, and a customer's SMS reaches the carrier without any restart; an edit that leaves
 * the password empty keeps it, a disabled carrier says so. Customers cannot open the screen.
 */
const PASSWORD = 'Peer#Secret-9';
let herald: Herald;
let browser: Browser;
let owner: TestUser;
let operator: TestUser;
let carrier: SmppCarrier;

before(async () => {
  carrier = await startSmppCarrier({ accounts: { herald_ops: PASSWORD }, receiptDelayMs: 20 });
  ({ herald, browser, owner } = await startConsoleTestbed());
  operator = await operatorUser(herald);
});

after(() => stopConsoleTestbed({ browser, herald }, carrier));

async function openScreen(page: Page): Promise<void> {
  await page.goto(`${herald.url}/admin/smsCarriers`);
  await page.locator('.admin-sms-carriers-page').waitFor();
}

/** The customer's SMS through /smsapi/send, signed as SendCloud's clients sign it. */
async function sendSms(smsUser: string, smsKey: string, templateId: number, phone: string) {
  const params = { smsUser, templateId: String(templateId), phone, vars: '{"code":"8080"}' };
  const body = new URLSearchParams({ ...params, signature: sign(smsKey, params) });
  const res = await fetch(`${herald.url}/smsapi/send`, { method: 'POST', body });
  return (await res.json()) as { statusCode: number; message: string };
}

test('the operator adds a carrier and a route on the screen; an SMS goes through it without a restart', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, operator);
    await openScreen(page);
    await page.locator('.admin-carriers-table').getByText('还没有通道').waitFor();

    await page.getByTestId('admin-carrier-add').click();
    const modal = page.locator('.admin-carrier-modal');
    await modal.locator('input.admin-carrier-name').fill('two words');
    await modal.locator('input.admin-carrier-url').fill('http://127.0.0.1');
    await page.locator('.admin-carrier-save').click();
    await modal.getByText('通道名称为1-32位字母、数字、下划线、点或横线').waitFor();
    await modal.getByText(/地址应为 smpp:\/\/主机:端口/).waitFor();
    await modal.getByText('此项为必填项').first().waitFor();

    await modal.locator('input.admin-carrier-name').fill('peer');
    await modal.locator('input.admin-carrier-url').fill(`smpp://127.0.0.1:${carrier.port}`);
    await modal.locator('input.admin-carrier-system-id').fill('herald_ops');
    await modal.locator('.admin-carrier-password input').fill(PASSWORD);
    await modal.locator('input.admin-carrier-source').fill('1069009');
    await page.locator('.admin-carrier-save').click();
    await toasts(page, 'success').getByText('已添加通道 peer').waitFor();
    await modal.waitFor({ state: 'detached' });

    const row = page.locator('.admin-carriers-table tr[data-carrier-name="peer"]');
    await row.locator('.admin-carrier-status').getByText('已启用').waitFor();
    assert.equal(await row.locator('.admin-carrier-protocol').textContent(), 'SMPP');
    assert.equal(await row.locator('.admin-carrier-host').textContent(), `127.0.0.1:${carrier.port}`);
    assert.match((await row.textContent()) ?? '', /herald_ops.*1069009.*100条\/秒/);
    assert.ok(!(await page.content()).includes(PASSWORD), 'the password is never shown');

    await page.getByTestId('admin-route-add').click();
    const routeModal = page.locator('.admin-route-modal');
    await routeModal.locator('input.admin-route-country').fill('C1');
    await page.locator('.admin-route-save').click();
    await routeModal.getByText('国家代码应为两位字母（ISO 3166）或*').waitFor();
    await routeModal.locator('input.admin-route-country').fill('cn');
    await routeModal.locator('input.admin-route-prefix').fill('139');
    await routeModal.locator('.admin-route-priority input').fill('2');
    await page.locator('.admin-route-save').click();
    await routeModal.waitFor({ state: 'detached' });
    const route = page.locator('.admin-routes-table tbody tr.ant-table-row');
    await route.getByText('139').waitFor();
    assert.deepEqual(await route.locator('td').allTextContents(), ['CN', '139', '全部', 'peer', '2', '删除']);

    // The running worker reads the new carrier and route by itself.
    const smsKey = randomBytes(32).toString('base64url');
    const { templateId } = await withHeraldDatabase(herald, async (database) => {
      const user = await database.db
        .selectFrom('users')
        .select('account_id')
        .where('username', '=', owner.userName)
        .executeTakeFirstOrThrow();
      return createSmsSender(database, heraldSecretBox(herald), {
        accountId: Number(user.account_id),
        smsUser: 'carrier_screen',
        smsKey,
      });
    });
    const sent = await sendSms('carrier_screen', smsKey, templateId, '13900139001');
    assert.equal(sent.statusCode, 200, sent.message);
    const [submitted] = await carrier.waitForMessages(1, 20_000);
    assert.equal(submitted?.destination, '8613900139001');
    assert.equal(submitted?.systemId, 'herald_ops');
  }));

test('an edit without a password keeps it; disabling asks first and shows on carriers and routes', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, operator);
    await openScreen(page);
    const row = page.locator('.admin-carriers-table tr[data-carrier-name="peer"]');
    await row.locator('.admin-carrier-edit').click();
    const modal = page.locator('.admin-carrier-modal');
    await modal.locator('.admin-carrier-password input[placeholder="留空则保留原密码"]').waitFor();
    assert.equal(await modal.locator('.admin-carrier-password input').inputValue(), '');
    assert.equal(await modal.locator('input.admin-carrier-name').isDisabled(), true);
    await modal.locator('input.admin-carrier-source').fill('1069010');
    await page.locator('.admin-carrier-save').click();
    await toasts(page, 'success').getByText('已保存通道 peer').waitFor();
    await row.getByText('1069010').waitFor();
    const password = await withHeraldDatabase(herald, async (database) => {
      const sealed = await database.db
        .selectFrom('sms_carriers')
        .select('secret_sealed')
        .where('name', '=', 'peer')
        .executeTakeFirstOrThrow();
      return heraldSecretBox(herald).open(sealed.secret_sealed, 'sms_carrier');
    });
    assert.equal(password, PASSWORD);

    await confirmPopconfirm(page, row.locator('.admin-carrier-disable'), 'admin-carrier-disable-ok');
    await row.locator('.admin-carrier-status').getByText('已停用').waitFor();
    await page.locator('.admin-routes-table').getByText('已停用').waitFor();
    await row.locator('.admin-carrier-enable').click();
    await row.locator('.admin-carrier-status').getByText('已启用').waitFor();
  }));

test('customers cannot open /admin/smsCarriers: the guard sends them to the deny page', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/admin/smsCarriers`);
    await page.waitForURL((url) => url.pathname === '/backend/deny');
  }));
