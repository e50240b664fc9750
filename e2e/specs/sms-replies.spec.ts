import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
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
 * Replies on the console: an SMS goes out through the SMS API to the loopback carrier, the
 * handset answers (a deliver_sm from the peer to the service code and the account's extension),
 * and the uplink replies screen shows the answer and the opt-out; the reply data screen counts
 * them; the unsubscribe list holds the number.
 */
let herald: Herald;
let browser: Browser;
let owner: TestUser;
let carrier: SmppCarrier;
const smsKey = randomBytes(32).toString('base64url');
let templateId = 0;
let serviceNumber = '';

before(async () => {
  carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 20 });
  ({ herald, browser, owner } = await startConsoleTestbed());
  await withHeraldDatabase(herald, async (database) => {
    const user = await database.db
      .selectFrom('users')
      .select('account_id')
      .where('username', '=', owner.userName)
      .executeTakeFirstOrThrow();
    const accountId = Number(user.account_id);
    const box = new SecretBox(loadSecretKey({ dataDir: herald.dataDir, secretKey: undefined }));
    ({ templateId } = await createSmsSender(database, box, { accountId, smsUser: 'reply_sms', smsKey }));
    const carriers = new SmsCarriersService(database, box);
    await carriers.save({
      name: 'peer',
      url: `smpp://127.0.0.1:${carrier.port}`,
      systemId: 'herald',
      password: 'secret',
      sourceAddr: '10690001',
    });
    serviceNumber = `10690001${accountId}`;
    await carriers.addRoute({ carrier: 'peer', country: 'CN' });
  });
});

after(() => stopConsoleTestbed({ browser, herald }, carrier));

const send = async (phone: string) => {
  const params = { smsUser: 'reply_sms', templateId: String(templateId), phone, vars: '{"code":"4321"}' };
  const res = await fetch(`${herald.url}/smsapi/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...params, signature: sign(smsKey, params) }).toString(),
  });
  const body = (await res.json()) as { statusCode: number };
  assert.equal(body.statusCode, 200, JSON.stringify(body));
};

test('a reply and an opt-out show on the uplink replies and reply data screens', (t) =>
  withPage(browser, t, async (page) => {
    await send('13800138801');
    await send('13800138802');
    await carrier.waitForMessages(2, 15_000);
    assert.ok(carrier.sendMo('8613800138801', serviceNumber, '好的，明天见'));
    assert.ok(carrier.sendMo('8613800138802', serviceNumber, '退订'));

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
