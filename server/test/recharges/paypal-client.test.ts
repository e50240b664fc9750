import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type AppError, isAppError } from '@herald/shared';
import { type PaypalPeer, startPaypalPeer } from '@herald/test-peers';
import { PaypalClient, type PaypalSettings } from '../../src/core/recharges/paypal-client.ts';

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

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('PaypalClient against the loopback PayPal peer', () => {
  let peer: PaypalPeer;
  let settings: PaypalSettings;
  let client: PaypalClient;
  let herald: Server;
  let webhookUrl: string;
  const deliveries: { headers: IncomingHttpHeaders; body: string }[] = [];
  let sequence = 0;

  const newOrder = (value = '15.00', currency = 'USD') => {
    sequence += 1;
    return {
      requestId: `R2025000${sequence}-create`,
      customId: `R2025000${sequence}`,
      currency,
      value,
      description: 'Herald balance recharge',
      returnUrl: 'http://herald.test/recharge/paypal/return',
      cancelUrl: 'http://herald.test/recharge/paypal/cancel',
      locale: 'zh-CN',
    };
  };
  const tokenCalls = () => peer.calls.filter((call) => call.path === '/v1/oauth2/token').length;

  before(async () => {
    peer = await startPaypalPeer({ webhookId: 'WH-HERALD-TEST' });
    settings = {
      clientId: peer.clientId,
      clientSecret: peer.clientSecret,
      webhookId: peer.webhookId,
      apiBase: peer.base,
    };
    client = new PaypalClient(settings);
    herald = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end();
      });
    });
    webhookUrl = `http://127.0.0.1:${await listen(herald)}/payments/paypal/webhook`;
  });

  after(async () => {
    await peer.close();
    await closeServer(herald);
  });

  it('creates an order whose approve link opens the approve page', async () => {
    const order = newOrder('99.00', 'CNY');
    const created = await client.createOrder(order);
    assert.match(created.id, /^[A-Z0-9]{17}$/);
    const stored = peer.orders.get(created.id);
    assert.equal(stored?.status, 'CREATED');
    assert.equal(stored?.customId, order.customId);
    assert.equal(stored?.currency, 'CNY');
    assert.equal(stored?.value, '99.00');
    assert.equal(stored?.returnUrl, order.returnUrl);
    assert.equal(stored?.cancelUrl, order.cancelUrl);
    assert.equal(stored?.requestId, order.requestId);

    const page = await fetch(created.approveUrl);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /<title>PayPal test checkout<\/title>/);
    assert.match(html, /CNY 99\.00/);

    const again = await client.createOrder(order);
    assert.equal(again.id, created.id, 'the same PayPal-Request-Id answers the same order');
  });

  it('refuses to capture before approval, naming ORDER_NOT_APPROVED', async () => {
    const { id } = await client.createOrder(newOrder());
    const error = await appErrorOf(client.capture(id, `${id}-capture`));
    assert.equal(error.code, 'PAYMENT_PROVIDER_ERROR');
    assert.equal(error.params.provider, 'PayPal');
    assert.match(String(error.params.reason), /ORDER_NOT_APPROVED/);
    assert.match(String(error.params.reason), /debug_id/);
    assert.equal(peer.orders.get(id)?.capture, null);
  });

  it('captures an approved order, and a second capture answers the same order', async () => {
    const order = newOrder('15.00');
    const { id } = await client.createOrder(order);
    peer.approve(id);
    const captured = await client.capture(id, `${order.customId}-capture`);
    const peerCapture = peer.orders.get(id)?.capture;
    assert.ok(peerCapture);
    assert.deepEqual(captured, {
      id,
      status: 'COMPLETED',
      customId: order.customId,
      currency: 'USD',
      value: '15.00',
      capture: {
        id: peerCapture.id,
        status: 'COMPLETED',
        currency: 'USD',
        value: '15.00',
        customId: order.customId,
      },
    });

    const capturesBefore = peer.calls.filter(
      (call) => call.path === `/v2/checkout/orders/${id}/capture`,
    ).length;
    const again = await client.capture(id, `${order.customId}-capture-2`);
    assert.deepEqual(again, captured);
    assert.equal(
      peer.calls.filter((call) => call.path === `/v2/checkout/orders/${id}/capture`).length,
      capturesBefore + 1,
    );
    assert.ok(
      peer.calls.some((call) => call.method === 'GET' && call.path === `/v2/checkout/orders/${id}`),
      'an already captured order is read back',
    );
    assert.equal(tokenCalls(), 1, 'the token is fetched once and reused');
  });

  it('answers a declined capture as DECLINED', async () => {
    const { id } = await client.createOrder(newOrder('20.00'));
    peer.approve(id);
    peer.declineNextCapture(id);
    const order = await client.capture(id, `${id}-capture`);
    assert.equal(order.status, 'COMPLETED');
    assert.equal(order.capture?.status, 'DECLINED');
    assert.equal(peer.orders.get(id)?.capture?.status, 'DECLINED');
  });

  it('reads an order back, and an unknown one as null', async () => {
    const order = newOrder('7.50');
    const { id } = await client.createOrder(order);
    assert.deepEqual(await client.getOrder(id), {
      id,
      status: 'CREATED',
      customId: order.customId,
      currency: 'USD',
      value: '7.50',
      capture: null,
    });
    assert.equal(await client.getOrder('NOSUCHORDER000000'), null);
  });

  it('verifies a webhook delivery by postback, and not a forged one', async () => {
    const order = newOrder('30.00');
    const { id } = await client.createOrder(order);
    peer.approve(id);
    await client.capture(id, `${id}-capture`);

    assert.equal(await peer.sendWebhook(webhookUrl, 'PAYMENT.CAPTURE.COMPLETED', id), 200);
    const genuine = deliveries.at(-1);
    assert.ok(genuine);
    const verifyCalls = () =>
      peer.calls.filter((call) => call.path === '/v1/notifications/verify-webhook-signature').length;
    const callsBefore = verifyCalls();
    assert.equal(await client.verifyWebhook(genuine.headers, genuine.body), true);
    assert.equal(verifyCalls(), callsBefore + 1, 'verified by asking PayPal');

    const upper = Object.fromEntries(
      Object.entries(genuine.headers).map(([name, value]) => [name.toUpperCase(), value]),
    );
    assert.equal(await client.verifyWebhook(upper, genuine.body), true, 'header names are case-insensitive');

    await peer.sendWebhook(webhookUrl, 'PAYMENT.CAPTURE.COMPLETED', id, { forge: true });
    const forged = deliveries.at(-1);
    assert.ok(forged && forged !== genuine);
    assert.equal(await client.verifyWebhook(forged.headers, forged.body), false);

    const { 'paypal-transmission-sig': _sig, ...unsigned } = genuine.headers;
    assert.equal(await client.verifyWebhook(unsigned, genuine.body), false);
    assert.equal(await client.verifyWebhook(genuine.headers, 'not json'), false);

    const otherHook = new PaypalClient({ ...settings, webhookId: 'WH-SOMEONE-ELSE' });
    assert.equal(await otherHook.verifyWebhook(genuine.headers, genuine.body), false);
  });

  it('drops a refused token and retries once', async () => {
    let refuseNext = false;
    const seen: string[] = [];
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        seen.push(`${req.method} ${req.url}`);
        if (refuseNext && req.url !== '/v1/oauth2/token') {
          refuseNext = false;
          res.writeHead(401, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ name: 'AUTHENTICATION_FAILURE', message: 'expired', debug_id: 'x1' }));
          return;
        }
        const headers: Record<string, string> = {};
        for (const name of ['authorization', 'content-type', 'paypal-request-id']) {
          const value = req.headers[name];
          if (typeof value === 'string') headers[name] = value;
        }
        const response = await fetch(`${peer.base}${req.url}`, {
          method: req.method,
          headers,
          body: req.method === 'GET' ? undefined : Buffer.concat(chunks),
        });
        res.writeHead(response.status, { 'content-type': 'application/json' });
        res.end(await response.text());
      });
    });
    const port = await listen(proxy);
    try {
      const proxied = new PaypalClient({ ...settings, apiBase: `http://127.0.0.1:${port}` });
      await proxied.getOrder('NOSUCHORDER000000');
      refuseNext = true;
      assert.equal(await proxied.getOrder('NOSUCHORDER000000'), null);
      assert.deepEqual(seen, [
        'POST /v1/oauth2/token',
        'GET /v2/checkout/orders/NOSUCHORDER000000',
        'GET /v2/checkout/orders/NOSUCHORDER000000',
        'POST /v1/oauth2/token',
        'GET /v2/checkout/orders/NOSUCHORDER000000',
      ]);
    } finally {
      await closeServer(proxy);
    }
  });

  it('fetches a new token once the cached one is within a minute of expiring', async () => {
    let now = 1_000_000;
    const timed = new PaypalClient(settings, { now: () => now });
    const before = tokenCalls();
    await timed.getOrder('NOSUCHORDER000000');
    now += (32_400 - 61) * 1000;
    await timed.getOrder('NOSUCHORDER000000');
    assert.equal(tokenCalls(), before + 1);
    now += 2000;
    await timed.getOrder('NOSUCHORDER000000');
    assert.equal(tokenCalls(), before + 2);
  });

  it('reports a wrong client secret as PAYMENT_PROVIDER_ERROR without the secret', async () => {
    const wrong = new PaypalClient({ ...settings, clientSecret: 'EP-not-the-secret' });
    const error = await appErrorOf(wrong.createOrder(newOrder()));
    assert.equal(error.code, 'PAYMENT_PROVIDER_ERROR');
    assert.match(String(error.params.reason), /invalid_client/);
    assert.doesNotMatch(JSON.stringify({ message: error.message, params: error.params }), /not-the-secret/);
  });

  it('reports a peer that is down, or that never answers, as PAYMENT_PROVIDER_UNREACHABLE', async () => {
    const gone = await startPaypalPeer();
    const base = gone.base;
    await gone.close();
    const down = new PaypalClient({ ...settings, apiBase: base });
    const error = await appErrorOf(down.getOrder('ANYORDER000000000'));
    assert.equal(error.code, 'PAYMENT_PROVIDER_UNREACHABLE');
    assert.equal(error.params.provider, 'PayPal');
    assert.equal(await down.verifyWebhook({}, '{}'), false);

    const silent = createServer(() => {});
    const port = await listen(silent);
    try {
      const slow = new PaypalClient({ ...settings, apiBase: `http://127.0.0.1:${port}` }, { timeoutMs: 200 });
      assert.equal(
        (await appErrorOf(slow.getOrder('ANYORDER000000000'))).code,
        'PAYMENT_PROVIDER_UNREACHABLE',
      );
    } finally {
      await closeServer(silent);
    }
  });

  it('reports an unreadable answer as PAYMENT_PROVIDER_ERROR', async () => {
    const garbled = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    });
    const port = await listen(garbled);
    try {
      const confused = new PaypalClient({ ...settings, apiBase: `http://127.0.0.1:${port}` });
      const error = await appErrorOf(confused.getOrder('ANYORDER000000000'));
      assert.equal(error.code, 'PAYMENT_PROVIDER_ERROR');
      assert.match(String(error.params.reason), /unreadable/);
    } finally {
      await closeServer(garbled);
    }
  });
});
