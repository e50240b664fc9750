import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type PaypalPeer, startPaypalPeer } from '@herald/test-peers';
import { PAYPAL_WEBHOOK_PATH } from '../../src/core/recharges/recharges.service.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { testDialect } from '../helpers/database.ts';
import { createOwner, type SignedIn } from '../helpers/members.ts';
import { api, operatorSession } from '../templates/template-helpers.ts';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Recharge by PayPal (issue 18; reference payments-and-identity §2) against the loopback PayPal
 * peer: the order in the operator's currency at their rate, approval on PayPal's page, the capture
 * when the buyer comes back (the result screen's check) or when the approval webhook arrives, the
 * balance credited once in yuan and only for a completed capture, a declined capture failing the
 * order, and webhooks that do not verify refused.
 */
describe(`recharge by PayPal on ${testDialect}`, () => {
  let t: TestApp;
  let peer: PaypalPeer;
  let base: string;
  let call: ReturnType<typeof api>;

  before(async () => {
    peer = await startPaypalPeer();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await buildTestApp({ env: { HERALD_PUBLIC_URL: base } });
    await t.app.listen({ host: '127.0.0.1', port });
    call = api(t);
    const operator = await operatorSession(t);
    const set = await call('PUT', '/v3/api/admin/paymentSettings/paypal', operator, {
      clientId: peer.clientId,
      clientSecret: peer.clientSecret,
      webhookId: peer.webhookId,
      apiBase: peer.base,
      currency: 'USD',
      rateFen: 710,
    });
    assert.equal(set.statusCode, 200, set.body);
    const views = await call('GET', '/v3/api/admin/paymentSettings', operator);
    assert.doesNotMatch(views.body, new RegExp(peer.clientSecret));
  });
  after(async () => {
    await t?.close();
    await peer?.close();
  });

  const balanceOf = async (who: SignedIn) =>
    (await call('GET', '/v3/api/userInfo/userBalance', who)).json().data.balance;
  const orderOf = async (who: SignedIn, orderNo: string) =>
    (await call('GET', `/v3/api/user/orders/${orderNo}`, who)).json().data;
  const webhookUrl = () => `${base}${PAYPAL_WEBHOOK_PATH}`;
  /** Places an order; answers Herald's order number and PayPal's order id. */
  const order = async (who: SignedIn, amount: string) => {
    const res = await call('POST', '/v3/api/paypal/pay', who, { amount });
    assert.equal(res.statusCode, 201, res.body);
    const { orderNo, payUrl } = res.json().data as { orderNo: string; payUrl: string };
    assert.ok(payUrl.startsWith(peer.base), payUrl);
    const paypalId = new URL(payUrl).searchParams.get('token') ?? '';
    assert.ok(peer.orders.has(paypalId));
    return { orderNo, paypalId };
  };

  it('charges the operator’s currency at their rate and credits the yuan once the buyer returns', async () => {
    const owner = await createOwner(t, 'pp_return');
    const options = (await call('GET', '/v3/api/user/pay', owner)).json().data;
    assert.deepEqual(options.paypal, { currency: 'USD', rateFen: 710 });
    const { orderNo, paypalId } = await order(owner, '100');
    const atPaypal = peer.orders.get(paypalId);
    assert.deepEqual([atPaypal?.currency, atPaypal?.value, atPaypal?.customId], ['USD', '14.09', orderNo]);
    assert.equal((await orderOf(owner, orderNo)).providerAmount, '14.09');

    // Back before approving: nothing is captured or credited.
    const early = await call('POST', `/v3/api/user/orders/${orderNo}/check`, owner);
    assert.equal(early.json().data.status, 'pending');

    peer.approve(paypalId);
    const back = await call('POST', `/v3/api/user/orders/${orderNo}/check`, owner);
    assert.equal(back.json().data.status, 'paid', back.body);
    assert.equal(await balanceOf(owner), 10_000);
    const captureId = peer.orders.get(paypalId)?.capture?.id;
    assert.equal(back.json().data.providerTxnId, captureId);

    // The capture webhook afterwards changes nothing.
    assert.equal(await peer.sendWebhook(webhookUrl(), 'PAYMENT.CAPTURE.COMPLETED', paypalId), 200);
    await call('POST', `/v3/api/user/orders/${orderNo}/check`, owner);
    assert.equal(await balanceOf(owner), 10_000, 'credited once');
    const captures = peer.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/capture'));
    assert.equal(captures.length, 1, 'captured once');
  });

  it('captures from the approval webhook when the buyer never comes back', async () => {
    const owner = await createOwner(t, 'pp_webhook');
    const { orderNo, paypalId } = await order(owner, '50');
    peer.approve(paypalId);
    assert.equal(await peer.sendWebhook(webhookUrl(), 'CHECKOUT.ORDER.APPROVED', paypalId), 200);
    assert.equal((await orderOf(owner, orderNo)).status, 'paid');
    assert.equal(await balanceOf(owner), 5000);
    assert.equal(await peer.sendWebhook(webhookUrl(), 'CHECKOUT.ORDER.APPROVED', paypalId), 200);
    assert.equal(await balanceOf(owner), 5000);
  });

  it('refuses a webhook that does not verify and changes nothing', async () => {
    const owner = await createOwner(t, 'pp_forged');
    const { orderNo, paypalId } = await order(owner, '30');
    peer.approve(paypalId);
    assert.equal(
      await peer.sendWebhook(webhookUrl(), 'CHECKOUT.ORDER.APPROVED', paypalId, { forge: true }),
      400,
    );
    assert.equal((await orderOf(owner, orderNo)).status, 'pending');
    assert.equal(await balanceOf(owner), 0);
    const junk = await fetch(webhookUrl(), { method: 'POST', body: '{not json' });
    assert.equal(junk.status, 400);
  });

  it('fails an order whose capture PayPal declined, crediting nothing', async () => {
    const owner = await createOwner(t, 'pp_declined');
    const { orderNo, paypalId } = await order(owner, '20');
    peer.approve(paypalId);
    peer.declineNextCapture(paypalId);
    const checked = await call('POST', `/v3/api/user/orders/${orderNo}/check`, owner);
    assert.equal(checked.json().data.status, 'failed');
    assert.equal(checked.json().data.failure, 'CAPTURE_DECLINED');
    assert.equal(await balanceOf(owner), 0);
  });
});
