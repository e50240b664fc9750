import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, test } from 'node:test';
import { type AlipayPeer, startAlipayPeer } from '@herald/test-peers';
import { PaymentSettingsService } from '../../server/src/core/recharges/payment-settings.service.ts';
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
import { freePort } from '../harness/mail-peers.ts';
import { heraldSecretBox } from '../harness/sms.ts';

/**
 * Recharge by Alipay (issue 18) in the browser, against a real Herald and the loopback Alipay
 * peer: a free customer's charge screen refuses an amount under 9.9 yuan by the shared rule,
 * places an order of 99 yuan and is sent to the peer's cashier; paying there makes the peer post
 * its signed notify to Herald and send the browser back to the result screen, which shows the
 * credit; the header's balance, the finance screen's orders and its 30-day balance chart follow.
 */
let testbed: ConsoleTestbed;
let peer: AlipayPeer;

before(async () => {
  const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
  peer = await startAlipayPeer({
    appPublicKey: app.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  });
  const port = await freePort();
  testbed = await startConsoleTestbed({
    HERALD_HTTP_PORT: String(port),
    HERALD_PUBLIC_URL: `http://127.0.0.1:${port}`,
  });
  await withHeraldDatabase(testbed.herald, (database) =>
    new PaymentSettingsService(database, heraldSecretBox(testbed.herald)).set('alipay', {
      appId: peer.appId,
      sellerId: peer.sellerId,
      appPrivateKey: app.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      alipayPublicKey: peer.alipayPublicKey,
      gateway: peer.gateway,
    }),
  );
});

after(() => stopConsoleTestbed(testbed ?? {}, peer));

test('a customer tops up 99 yuan by Alipay and comes back to a credited balance', (t) =>
  withPage(testbed.browser, t, async (page) => {
    const { herald, owner } = testbed;
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/accountSetting/financialMangement/charge`);
    await waitForShell(page);
    await expectText(
      page.locator('.charge-free-notice .ant-alert-title'),
      '您的账户为免费版：首次充值不少于¥9.90即成为付费用户，解除免费限制。',
    );
    await expectText(
      page.locator('.recharge-orders .ant-empty-description'),
      '还没有充值订单。在上方充值即可为账户添加余额。',
    );

    await page.getByTestId('charge-amount').fill('8');
    await page.getByTestId('charge-submit').click();
    await expectText(
      page.locator('.ant-form-item-explain-error'),
      '请输入9.9元到1000000元之间的金额, 最多两位小数',
    );
    assert.equal(peer.trades.size, 0, 'no order was placed');

    await page.getByTestId('charge-amount').fill('99');
    await page.locator('.charge-method-alipay').click();
    await page.getByTestId('charge-submit').click();
    await page.waitForURL((url) => url.href.startsWith(peer.gateway));
    assert.equal(await page.title(), 'Alipay test cashier');
    await page.getByText('¥99.00').waitFor();

    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/accountSetting\/financialMangement\/charge\/result\?orderNo=/);
    await expectText(
      page.locator('.charge-result-paid .ant-result-title'),
      '¥99.00 已充入您的账户余额',
      20_000,
    );
    assert.equal(peer.notifications.at(-1)?.reply, 'success');
    await expectText(page.getByTestId('balance').locator('strong'), '¥99.00');

    await page.getByRole('button', { name: '查看财务管理' }).click();
    await page.locator('.finance-page').waitFor();
    await expectText(page.locator('.finance-balance .ant-statistic-content-value'), '99.00');
    await expectText(page.locator('.recharge-orders .recharge-status-paid'), '已支付');
    await page.locator('.finance-page [data-chart-ready="true"]').waitFor();
  }));
