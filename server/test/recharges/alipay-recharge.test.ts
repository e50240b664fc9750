import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS } from '@herald/shared';
import { type AlipayPeer, startAlipayPeer } from '@herald/test-peers';
import { RechargesService } from '../../src/core/recharges/recharges.service.ts';
import { createSender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { testDialect } from '../helpers/database.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { postForm } from '../send/send-client.ts';
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
 * Recharge by Alipay (issue 18; reference payments-and-identity §1) against the loopback Alipay
 * peer, which signs as Alipay does and posts its notifies to Herald's public URL: the order and
 * its signed payment page, the notify crediting the balance once (also when it comes twice, or
 * twice at once) and making a free account paid, forged and altered notifies refused,
 * reconciliation crediting an order whose notify never came and closing one never paid, sending
 * refused at zero balance and resumed after a recharge, an operator's offline transfer, and the
 * calls' tenancy and permission.
 */
describe(`recharge by Alipay on ${testDialect}`, () => {
  let t: TestApp;
  let peer: AlipayPeer;
  let base: string;
  let call: ReturnType<typeof api>;
  let operator: SignedIn;

  before(async () => {
    const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
    peer = await startAlipayPeer({
      appPublicKey: app.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await buildTestApp({ env: { HERALD_PUBLIC_URL: base } });
    await t.app.listen({ host: '127.0.0.1', port });
    call = api(t);
    operator = await operatorSession(t);
    const set = await call('PUT', '/v3/api/admin/paymentSettings/alipay', operator, {
      appId: peer.appId,
      sellerId: peer.sellerId,
      appPrivateKey: app.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      alipayPublicKey: peer.alipayPublicKey,
      gateway: peer.gateway,
    });
    assert.equal(set.statusCode, 200, set.body);
  });
  after(async () => {
    await t?.close();
    await peer?.close();
  });

  const balanceOf = async (who: SignedIn) =>
    (await call('GET', '/v3/api/userInfo/userBalance', who)).json().data.balance;
  const planOf = async (who: SignedIn) =>
    (
      await t.core.database.db
        .selectFrom('accounts')
        .select('plan')
        .where('id', '=', who.ctx.accountId)
        .executeTakeFirstOrThrow()
    ).plan;
  const entriesOf = (who: SignedIn) =>
    t.core.database.db
      .selectFrom('ledger_entries')
      .select(['kind', 'amount_fen', 'idempotency_key'])
      .where('account_id', '=', who.ctx.accountId)
      .where('kind', '=', 'recharge')
      .execute();
  /** Places an order as `who` and opens its payment page at the peer, as the browser would. */
  const order = async (who: SignedIn, amount: string) => {
    const res = await call('POST', '/v3/api/alipay/pay', who, { amount });
    assert.equal(res.statusCode, 201, res.body);
    const { orderNo, payUrl } = res.json().data as { orderNo: string; payUrl: string };
    const cashier = await fetch(payUrl);
    assert.match(await cashier.text(), /Alipay test cashier/);
    return orderNo;
  };

  it('offers Alipay, checks the amount, and the settings never show a key', async () => {
    const owner = await createOwner(t, 'ali_offer');
    const options = (await call('GET', '/v3/api/user/pay', owner)).json().data;
    assert.deepEqual(options.methods, ['alipay']);
    assert.equal(options.minFen, 990);
    assert.equal(options.free, true);

    for (const [amount, lang, message] of [
      ['9.89', 'en', 'Enter an amount between 9.9 and 1,000,000 yuan, with at most two decimals'],
      ['12.345', 'zh-cn', '请输入9.9元到1000000元之间的金额, 最多两位小数'],
      ['', 'en', 'Enter an amount between 9.9 and 1,000,000 yuan, with at most two decimals'],
    ] as const) {
      const res = await call('POST', '/v3/api/alipay/pay', owner, { amount }, lang);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().fields[0].message, message);
    }
    const paypal = await call('POST', '/v3/api/paypal/pay', owner, { amount: '20' });
    assert.equal(paypal.statusCode, 400);
    assert.match(paypal.json().error, /PayPal payment is not available yet/);

    const views = await call('GET', '/v3/api/admin/paymentSettings', operator);
    assert.doesNotMatch(views.body, /PRIVATE KEY|PUBLIC KEY/);
    assert.equal(views.json().data[0].appId, peer.appId);
    const stored = await t.core.database.db.selectFrom('payment_settings').select('sealed').execute();
    assert.doesNotMatch(JSON.stringify(stored), /PRIVATE KEY|appId/, 'sealed at rest');
  });

  it('credits a paid order once from its notify, twice delivered or at once, and makes the account paid', async () => {
    const owner = await createOwner(t, 'ali_paid');
    const orderNo = await order(owner, '99');
    assert.equal(peer.trades.get(orderNo)?.totalAmount, '99.00');
    assert.equal(await balanceOf(owner), 0);

    await peer.pay(orderNo);
    assert.deepEqual(peer.notifications.at(-1)?.reply, 'success');
    assert.equal(await balanceOf(owner), 9900);
    assert.equal(await planOf(owner), 'paid', 'the first recharge makes the account paid');

    assert.equal(await peer.notify(orderNo), 'success', 'a repeated notify is answered success');
    const twice = await Promise.all([peer.notify(orderNo), peer.notify(orderNo)]);
    assert.deepEqual(twice, ['success', 'success']);
    assert.equal(await balanceOf(owner), 9900, 'credited once');
    const entries = await entriesOf(owner);
    assert.equal(entries.length, 1);
    assert.equal(Number(entries[0]?.amount_fen), 9900);
    assert.equal(entries[0]?.idempotency_key, `recharge:alipay:${peer.trades.get(orderNo)?.tradeNo}`);

    const view = (await call('GET', `/v3/api/user/orders/${orderNo}`, owner)).json().data;
    assert.equal(view.status, 'paid');
    assert.equal(view.providerTxnId, peer.trades.get(orderNo)?.tradeNo);
    const listed = (await call('GET', '/v3/api/user/orders', owner)).json().data;
    assert.deepEqual(
      listed.list.map((o: { orderNo: string; status: string }) => [o.orderNo, o.status]),
      [[orderNo, 'paid']],
    );
  });

  it('refuses a forged notify and one whose amount was changed after signing', async () => {
    const owner = await createOwner(t, 'ali_forged');
    const orderNo = await order(owner, '50');
    await peer.pay(orderNo, { notify: false });
    assert.equal(await peer.forgedNotify(orderNo), 'failure');
    assert.equal(await peer.notify(orderNo, { total_amount: '5000.00' }), 'failure');
    assert.equal(
      await peer.notify(orderNo, { total_amount: '5000.00' }, { resign: true }),
      'failure',
      'a correctly signed notify for another amount than the order’s is not believed either',
    );
    assert.equal(await balanceOf(owner), 0);
    assert.equal((await call('GET', `/v3/api/user/orders/${orderNo}`, owner)).json().data.status, 'pending');
    assert.equal(await peer.notify(orderNo), 'success');
    assert.equal(await balanceOf(owner), 5000);
  });

  it('credits by reconciliation an order paid after its page was closed, and closes one never paid', async () => {
    const owner = await createOwner(t, 'ali_reconcile');
    const paid = await order(owner, '30');
    await peer.pay(paid, { notify: false }); // the notify never comes
    const abandoned = await order(owner, '40');
    const neverOpened = (await call('POST', '/v3/api/alipay/pay', owner, { amount: '60' })).json().data
      .orderNo;
    assert.equal(await balanceOf(owner), 0);

    // The reconciliation loop a while later: a minute on, the paid order is credited.
    let now = Date.now() + 61_000;
    const reconciler = new RechargesService({
      database: t.core.database,
      settings: t.core.paymentSettings,
      publicUrl: base,
      logger: t.core.logger,
      onFunded: () => {},
      now: () => now,
    });
    assert.equal(await reconciler.reconcileDue(), 3);
    assert.equal(await balanceOf(owner), 3000);
    const status = async (no: string) =>
      (await call('GET', `/v3/api/user/orders/${no}`, owner)).json().data.status;
    assert.deepEqual(
      [await status(paid), await status(abandoned), await status(neverOpened)],
      ['paid', 'pending', 'pending'],
    );

    // Past their 30 minutes: the one that never reached Alipay is closed; the one waiting at the
    // cashier stays until Alipay itself closes it.
    now += 31 * 60_000;
    await reconciler.reconcileDue();
    assert.deepEqual(
      [await status(paid), await status(abandoned), await status(neverOpened)],
      ['paid', 'pending', 'closed'],
    );
    // The buyer pays that one at the last moment: its notify still credits it.
    await peer.pay(abandoned);
    assert.equal(await status(abandoned), 'paid');
    assert.equal(await balanceOf(owner), 7000);
  });

  it('the result screen’s check asks Alipay at once', async () => {
    const owner = await createOwner(t, 'ali_check');
    const orderNo = await order(owner, '10');
    await peer.pay(orderNo, { notify: false });
    const checked = await call('POST', `/v3/api/user/orders/${orderNo}/check`, owner);
    assert.equal(checked.statusCode, 200, checked.body);
    assert.equal(checked.json().data.status, 'paid');
    assert.equal(await balanceOf(owner), 1000);
  });

  it('refuses mail at zero balance and sends again after an Alipay recharge', async () => {
    const owner = await createOwner(t, 'ali_gate');
    const f = await createSender(t.core.database, { accountId: owner.ctx.accountId });
    const first = await order(owner, '9.9');
    await peer.pay(first);
    // 9.9 yuan all spent.
    await t.core.ledger.adjust(null, owner.ctx.accountId, { amountFen: -990, reason: 'spent' });
    const send = () =>
      postForm(base, 'mail/send', {
        apiUser: f.apiUser,
        apiKey: f.apiKey,
        from: `a@${f.domain}`,
        to: 'x@example.org',
        subject: 's',
        plain: 'p',
      });
    assert.equal((await send()).statusCode, 40904);
    await peer.pay(await order(owner, '20'));
    assert.equal((await send()).statusCode, 200, 'sending resumes after the recharge');
  });

  it('records an offline transfer once per bank reference', async () => {
    const owner = await createOwner(t, 'ali_offline');
    const url = `/v3/api/admin/accounts/${owner.ctx.accountId}/offlineRecharges`;
    const body = { amount: '2000', remitter: 'Example Co., Ltd.', bankRef: 'ICBC-2026-0001' };
    const first = await call('POST', url, operator, body);
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.json().data.status, 'paid');
    assert.equal(first.json().data.channel, 'offline');
    assert.equal((await call('POST', url, operator, body)).statusCode, 201);
    assert.equal(await balanceOf(owner), 200_000);
    assert.equal(await planOf(owner), 'paid');
    const conflict = await call('POST', url, operator, { ...body, amount: '3000' });
    assert.equal(conflict.statusCode, 409);
    const bad = await call('POST', url, operator, { amount: '0', remitter: '', bankRef: '' });
    assert.equal(bad.statusCode, 400);
    const notOperator = await call('POST', url, owner, body);
    assert.equal(notOperator.statusCode, 403);
  });

  it('keeps accounts apart and needs the finance permission', async () => {
    const owner = await createOwner(t, 'ali_tenant');
    const other = await createOwner(t, 'ali_tenant_other');
    const orderNo = await order(owner, '15');
    assert.equal((await call('GET', `/v3/api/user/orders/${orderNo}`, other)).statusCode, 404);
    assert.equal((await call('POST', `/v3/api/user/orders/${orderNo}/check`, other)).statusCode, 404);
    assert.equal((await call('GET', '/v3/api/user/orders', other)).json().data.total, 0);
    const visitor = await joinedMember(t, owner, 'ali_visitor', { type: 'visitor' });
    assert.equal((await call('POST', '/v3/api/alipay/pay', visitor, { amount: '20' })).statusCode, 403);
    assert.equal((await call('GET', '/v3/api/user/orders', visitor)).statusCode, 200, 'a visitor may look');
    const sender = await joinedMember(t, owner, 'ali_sender', {
      type: 'custom',
      levels: { [PERMISSIONS.EMAIL_SEND]: 'full' },
    });
    assert.equal((await call('GET', '/v3/api/user/orders', sender)).statusCode, 403);
    assert.equal((await call('POST', '/v3/api/alipay/pay', sender, { amount: '20' })).statusCode, 403);
  });
});
