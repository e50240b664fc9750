import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type AppError, fenToYuan, isAppError, yuanToFen } from '@herald/shared';
import { type AlipayPeer, startAlipayPeer } from '@herald/test-peers';
import {
  AlipayClient,
  type AlipayPageOrder,
  type AlipaySettings,
} from '../../src/core/recharges/alipay-client.ts';

const pem = (key: {
  export(options: { type: 'pkcs1' | 'pkcs8' | 'spki'; format: 'pem' }): string | Buffer;
}) => key.export({ type: 'spki', format: 'pem' }).toString();

/** Waits for one rejection and hands back the AppError it carried. */
async function appErrorOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isAppError(error), String(error));
    return error;
  }
  assert.fail('expected an AppError');
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

describe('AlipayClient against the loopback Alipay peer', () => {
  const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const appPrivateKey = app.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  let peer: AlipayPeer;
  let settings: AlipaySettings;
  let client: AlipayClient;
  let herald: Server;
  let notifyUrl: string;
  const notifyBodies: string[] = [];

  const order = (outTradeNo: string, totalAmount = '99.00'): AlipayPageOrder => ({
    outTradeNo,
    totalAmount,
    subject: 'Herald 余额充值',
    notifyUrl,
    returnUrl: 'http://herald.test/recharge/return',
    timeoutExpress: '30m',
  });
  const openCashier = async (outTradeNo: string, totalAmount = '99.00') => {
    const res = await fetch(client.pagePayUrl(order(outTradeNo, totalAmount)));
    return res.text();
  };
  const lastNotify = () => Object.fromEntries(new URLSearchParams(notifyBodies.at(-1)));

  before(async () => {
    peer = await startAlipayPeer({ appPublicKey: pem(app.publicKey) });
    settings = {
      appId: peer.appId,
      sellerId: peer.sellerId,
      appPrivateKey,
      alipayPublicKey: peer.alipayPublicKey,
      gateway: peer.gateway,
    };
    client = new AlipayClient(settings);
    herald = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        notifyBodies.push(Buffer.concat(chunks).toString('utf8'));
        res.end('success');
      });
    });
    notifyUrl = `http://127.0.0.1:${await listen(herald)}/v3/api/recharge/alipay/notify`;
  });
  after(async () => {
    await peer.close();
    await new Promise<void>((resolve) => herald.close(() => resolve()));
  });

  it('builds a page.pay URL the gateway accepts, and a tampered one it refuses', async () => {
    const url = new URL(client.pagePayUrl(order('HR_1001')));
    assert.equal(`${url.origin}${url.pathname}`, peer.gateway);
    assert.equal(url.searchParams.get('method'), 'alipay.trade.page.pay');
    assert.equal(url.searchParams.get('sign_type'), 'RSA2');
    assert.match(url.searchParams.get('timestamp') ?? '', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.deepEqual(JSON.parse(url.searchParams.get('biz_content') ?? ''), {
      out_trade_no: 'HR_1001',
      product_code: 'FAST_INSTANT_TRADE_PAY',
      total_amount: '99.00',
      subject: 'Herald 余额充值',
      timeout_express: '30m',
    });
    assert.ok(!url.search.includes(' '), 'values are percent-encoded');

    const html = await (await fetch(url)).text();
    assert.match(html, /Alipay test cashier/);
    assert.match(html, /¥99\.00/);
    assert.match(html, /Herald 余额充值/);
    assert.equal(peer.trades.get('HR_1001')?.notifyUrl, notifyUrl);
    assert.equal(peer.trades.get('HR_1001')?.returnUrl, 'http://herald.test/recharge/return');

    const biz = JSON.parse(url.searchParams.get('biz_content') ?? '');
    url.searchParams.set(
      'biz_content',
      JSON.stringify({ ...biz, out_trade_no: 'HR_1002', total_amount: '0.01' }),
    );
    assert.match(await (await fetch(url)).text(), /isv\.invalid-signature/);
    assert.equal(peer.refused.at(-1)?.method, 'alipay.trade.page.pay');
    assert.equal(peer.trades.has('HR_1002'), false);
  });

  it('writes the timestamp in Beijing time whatever the clock zone', () => {
    const fixed = new AlipayClient(settings, { now: () => Date.UTC(2024, 0, 31, 17, 30, 5) });
    const url = new URL(fixed.pagePayUrl(order('HR_TIME')));
    assert.equal(url.searchParams.get('timestamp'), '2024-02-01 01:30:05');
  });

  it('queries a trade: waiting, then paid with its amount; an unknown order does not exist', async () => {
    await openCashier('HR_2001', '12.34');
    const waiting = await client.query('HR_2001');
    assert.deepEqual(waiting, {
      exists: true,
      tradeNo: peer.trades.get('HR_2001')?.tradeNo,
      status: 'WAIT_BUYER_PAY',
      totalAmount: '12.34',
    });

    await peer.pay('HR_2001', { notify: false });
    const paid = await client.query('HR_2001');
    assert.ok(paid.exists);
    assert.equal(paid.status, 'TRADE_SUCCESS');
    assert.equal(paid.totalAmount, '12.34');
    assert.match(paid.tradeNo, /^\d{28}$/);

    assert.deepEqual(await client.query('HR_NEVER_OPENED'), { exists: false });
  });

  it('verifies a notify from the peer, and not one changed after signing or forged', async () => {
    await openCashier('HR_3001', '50.00');
    await peer.pay('HR_3001');
    const fields = lastNotify();
    assert.equal(fields.out_trade_no, 'HR_3001');
    assert.equal(fields.trade_status, 'TRADE_SUCCESS');
    assert.equal(fields.seller_id, settings.sellerId);
    assert.equal(peer.notifications.at(-1)?.reply, 'success');
    assert.equal(client.verifyNotify(fields), true);

    assert.equal(client.verifyNotify({ ...fields, total_amount: '5000.00' }), false);
    assert.equal(client.verifyNotify({ ...fields, sign: '' }), false);
    assert.equal(client.verifyNotify({ ...fields, sign: 'not base64 at all!' }), false);
    const { sign: _sign, ...unsigned } = fields;
    assert.equal(client.verifyNotify(unsigned), false);

    await peer.notify('HR_3001', { total_amount: '0.01' });
    assert.equal(lastNotify().total_amount, '0.01');
    assert.equal(client.verifyNotify(lastNotify()), false);

    await peer.forgedNotify('HR_3001');
    assert.equal(lastNotify().out_trade_no, 'HR_3001');
    assert.equal(client.verifyNotify(lastNotify()), false);

    await peer.notify('HR_3001', { app_id: '2021000000009999' }, { resign: true });
    assert.equal(
      client.verifyNotify(lastNotify()),
      false,
      "signed by Alipay, but for another merchant's app",
    );

    await peer.notify('HR_3001');
    assert.equal(client.verifyNotify(lastNotify()), true, 'a resent notify verifies again');
    const wrongKey = new AlipayClient({ ...settings, alipayPublicKey: 'not a key' });
    assert.equal(wrongKey.verifyNotify(lastNotify()), false);
  });

  it('verifies the signed browser return as well', async () => {
    await openCashier('HR_3002', '1.00');
    const res = await fetch(peer.gateway.replace('/gateway.do', '/cashier/pay'), {
      method: 'POST',
      body: new URLSearchParams({ out_trade_no: 'HR_3002' }),
      redirect: 'manual',
    });
    assert.equal(res.status, 302);
    const returned = Object.fromEntries(new URL(res.headers.get('location') ?? '').searchParams);
    assert.equal(returned.method, 'alipay.trade.page.pay.return');
    assert.equal(client.verifyNotify(returned), true);
    assert.equal(client.verifyNotify({ ...returned, out_trade_no: 'HR_3001' }), false);
  });

  it('refuses a query answer whose signature does not verify', async () => {
    await openCashier('HR_4001');
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const distrustful = new AlipayClient({ ...settings, alipayPublicKey: pem(other.publicKey) });
    const error = await appErrorOf(distrustful.query('HR_4001'));
    assert.equal(error.code, 'PAYMENT_PROVIDER_ERROR');
    assert.equal(error.params.provider, 'Alipay');
    assert.match(String(error.params.reason), /signature/);
  });

  it("reports the gateway's refusal of a request signed with another app key", async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const otherKey = other.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const refusedBefore = peer.refused.length;
    const error = await appErrorOf(
      new AlipayClient({ ...settings, appPrivateKey: otherKey }).query('HR_4001'),
    );
    assert.equal(error.code, 'PAYMENT_PROVIDER_ERROR');
    assert.match(String(error.params.reason), /isv\.invalid-signature/);
    assert.ok(!String(error.params.reason).includes('PRIVATE KEY'));
    assert.ok(!JSON.stringify(error.params).includes(otherKey.slice(40, 80)));
    assert.deepEqual(
      peer.refused.slice(refusedBefore).map((entry) => entry.method),
      ['alipay.trade.query'],
    );
  });

  it('turns an unreadable answer into PAYMENT_PROVIDER_ERROR', async () => {
    const junk = createServer((_req, res) => res.end('<html>maintenance</html>'));
    const port = await listen(junk);
    try {
      const error = await appErrorOf(
        new AlipayClient({ ...settings, gateway: `http://127.0.0.1:${port}/gateway.do` }).query('HR_1'),
      );
      assert.equal(error.code, 'PAYMENT_PROVIDER_ERROR');
      assert.equal(error.params.reason, 'unreadable answer');
    } finally {
      await new Promise<void>((resolve) => junk.close(() => resolve()));
    }
  });

  it('is PAYMENT_PROVIDER_UNREACHABLE when the gateway is down or silent', async () => {
    const down = await startAlipayPeer({ appPublicKey: pem(app.publicKey) });
    await down.close();
    const refused = await appErrorOf(new AlipayClient({ ...settings, gateway: down.gateway }).query('HR_1'));
    assert.equal(refused.code, 'PAYMENT_PROVIDER_UNREACHABLE');
    assert.deepEqual(refused.params, { provider: 'Alipay' });

    const silent = createServer(() => {});
    const port = await listen(silent);
    try {
      const slow = new AlipayClient(
        { ...settings, gateway: `http://127.0.0.1:${port}/gateway.do` },
        { timeoutMs: 200 },
      );
      const started = Date.now();
      const timedOut = await appErrorOf(slow.query('HR_1'));
      assert.equal(timedOut.code, 'PAYMENT_PROVIDER_UNREACHABLE');
      assert.ok(Date.now() - started < 2_000);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe('yuanToFen and fenToYuan', () => {
  it('parses plain yuan amounts to fen without floats', () => {
    assert.equal(yuanToFen('0.01'), 1);
    assert.equal(yuanToFen('9.9'), 990);
    assert.equal(yuanToFen('12.34'), 1234);
    assert.equal(yuanToFen('0.29'), 29);
    assert.equal(yuanToFen('1.15'), 115);
    assert.equal(yuanToFen('0'), 0);
    assert.equal(yuanToFen('99'), 9900);
    assert.equal(yuanToFen('100000000.00'), 10_000_000_000);
  });

  it('refuses anything that is not a plain non-negative amount with at most 2 decimals', () => {
    for (const bad of [
      '12.345',
      '-1',
      '1e3',
      '',
      ' 1.00',
      '1.00 ',
      '+1',
      '.5',
      '1.',
      '01.00',
      '0x10',
      '1,00',
      'NaN',
    ]) {
      assert.equal(yuanToFen(bad), null, bad);
    }
  });

  it('formats fen as yuan with 2 decimals', () => {
    assert.equal(fenToYuan(1234), '12.34');
    assert.equal(fenToYuan(1), '0.01');
    assert.equal(fenToYuan(990), '9.90');
    assert.equal(fenToYuan(0), '0.00');
    assert.equal(fenToYuan(10_000_000_000), '100000000.00');
    for (const fen of [1, 29, 115, 990, 123456789]) assert.equal(yuanToFen(fenToYuan(fen)), fen);
  });
});
