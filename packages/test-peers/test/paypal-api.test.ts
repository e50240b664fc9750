import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type PaypalPeer, startPaypalPeer } from '../src/index.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

describe('PayPal Orders v2 peer', () => {
  let peer: PaypalPeer;
  let token: string;
  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];

  const api = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: Record<string, unknown> }> => {
    const response = await fetch(`${peer.base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const orderBody = (
    overrides: Record<string, unknown> = {},
    amount = { currency_code: 'USD', value: '15.00' },
  ) => ({
    intent: 'CAPTURE',
    purchase_units: [{ amount, custom_id: 'R20250101000001', description: 'Herald recharge' }],
    payment_source: {
      paypal: {
        experience_context: {
          return_url: 'http://herald.test/recharge/paypal/return?x=1',
          cancel_url: 'http://herald.test/recharge/paypal/cancel',
          brand_name: 'Herald',
          shipping_preference: 'NO_SHIPPING',
          user_action: 'PAY_NOW',
        },
      },
    },
    ...overrides,
  });

  const create = async (requestId?: string) => {
    const answer = await api(
      'POST',
      '/v2/checkout/orders',
      orderBody(),
      requestId ? { 'PayPal-Request-Id': requestId } : {},
    );
    assert.equal(answer.status, 201);
    return answer.body.id as string;
  };

  const issueOf = (body: Record<string, unknown>) => (body.details as { issue: string }[])[0]?.issue;

  const verify = (delivery: Received, overrides: Record<string, unknown> = {}) =>
    api('POST', '/v1/notifications/verify-webhook-signature', {
      auth_algo: delivery.headers['paypal-auth-algo'],
      cert_url: delivery.headers['paypal-cert-url'],
      transmission_id: delivery.headers['paypal-transmission-id'],
      transmission_sig: delivery.headers['paypal-transmission-sig'],
      transmission_time: delivery.headers['paypal-transmission-time'],
      webhook_id: peer.webhookId,
      webhook_event: JSON.parse(delivery.body),
      ...overrides,
    });

  before(async () => {
    peer = await startPaypalPeer({
      clientId: 'herald-client',
      clientSecret: 'herald-secret',
      webhookId: 'WH-HERALD-1',
    });
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/payments/paypal/webhook`;
  });

  after(async () => {
    await peer.close();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('issues a token for the right client credentials only', async () => {
    const basic = (secret: string) => `Basic ${Buffer.from(`herald-client:${secret}`).toString('base64')}`;
    const refused = await fetch(`${peer.base}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: basic('wrong'), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    assert.equal(refused.status, 401);
    assert.deepEqual(await refused.json(), {
      error: 'invalid_client',
      error_description: 'Client Authentication failed',
    });

    const response = await fetch(`${peer.base}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: basic('herald-secret'), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as Record<string, unknown>;
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 32400);
    for (const field of ['scope', 'access_token', 'app_id', 'nonce'])
      assert.equal(typeof body[field], 'string', field);
    token = body.access_token as string;
  });

  it('refuses API calls without a valid bearer token', async () => {
    const saved = token;
    token = 'A21AAnot-a-token';
    const answer = await api('POST', '/v2/checkout/orders', orderBody());
    token = saved;
    assert.equal(answer.status, 401);
    assert.equal(answer.body.name, 'AUTHENTICATION_FAILURE');
    assert.equal(peer.orders.size, 0);
  });

  it('creates an order, and a replayed PayPal-Request-Id answers the same order', async () => {
    const first = await api('POST', '/v2/checkout/orders', orderBody(), {
      'PayPal-Request-Id': 'req-create-1',
    });
    assert.equal(first.status, 201);
    const id = first.body.id as string;
    assert.match(id, /^[A-Z0-9]{17}$/);
    assert.equal(first.body.status, 'CREATED');
    const links = first.body.links as { rel: string; href: string }[];
    assert.deepEqual(
      links.map((link) => link.rel),
      ['self', 'approve', 'update', 'capture'],
    );
    assert.equal(links[1]?.href, `${peer.base}/checkoutnow?token=${id}`);
    const stored = peer.orders.get(id);
    assert.equal(stored?.customId, 'R20250101000001');
    assert.equal(stored?.returnUrl, 'http://herald.test/recharge/paypal/return?x=1');
    assert.equal(stored?.requestId, 'req-create-1');

    const replay = await api('POST', '/v2/checkout/orders', orderBody(), {
      'PayPal-Request-Id': 'req-create-1',
    });
    assert.equal(replay.status, 200);
    assert.equal(replay.body.id, id);
    assert.equal([...peer.orders.values()].filter((order) => order.requestId === 'req-create-1').length, 1);
  });

  it('takes return and cancel URLs from the legacy application_context too', async () => {
    const answer = await api(
      'POST',
      '/v2/checkout/orders',
      orderBody({
        payment_source: undefined,
        application_context: { return_url: 'http://legacy.test/ok', cancel_url: 'http://legacy.test/no' },
      }),
    );
    assert.equal(answer.status, 201);
    const order = peer.orders.get(answer.body.id as string);
    assert.equal(order?.returnUrl, 'http://legacy.test/ok');
    assert.equal(order?.cancelUrl, 'http://legacy.test/no');
  });

  it('refuses malformed orders with PayPal error bodies', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [orderBody({ intent: 'AUTHORIZE' }), 400, 'INVALID_PARAMETER_VALUE'],
      [orderBody({ purchase_units: [] }), 400, 'MISSING_REQUIRED_PARAMETER'],
      [orderBody({}, { currency_code: 'US', value: '15.00' }), 400, 'INVALID_PARAMETER_SYNTAX'],
      [orderBody({}, { currency_code: 'USD', value: '15,00' }), 400, 'INVALID_PARAMETER_SYNTAX'],
      [orderBody({}, { currency_code: 'USD', value: '15.001' }), 422, 'DECIMAL_PRECISION'],
    ];
    const before = peer.orders.size;
    for (const [body, status, issue] of cases) {
      const answer = await api('POST', '/v2/checkout/orders', body);
      assert.equal(answer.status, status, issue);
      assert.equal(issueOf(answer.body), issue);
      assert.equal(typeof answer.body.debug_id, 'string');
      assert.equal(typeof answer.body.message, 'string');
      assert.equal(answer.body.name, status === 400 ? 'INVALID_REQUEST' : 'UNPROCESSABLE_ENTITY');
    }
    assert.equal(peer.orders.size, before);
  });

  it('serves an approve page whose Pay Now goes back to return_url with token and PayerID', async () => {
    const id = await create();
    const page = await fetch(`${peer.base}/checkoutnow?token=${id}`);
    const html = await page.text();
    assert.match(html, /<title>PayPal test checkout<\/title>/);
    assert.match(html, /USD 15\.00/);
    assert.match(html, /action="\/checkoutnow\/approve"[\s\S]*Pay Now/);
    assert.match(html, /action="\/checkoutnow\/cancel"[\s\S]*Cancel and return/);

    const approved = await fetch(`${peer.base}/checkoutnow/approve`, {
      method: 'POST',
      body: new URLSearchParams({ token: id }),
      redirect: 'manual',
    });
    assert.equal(approved.status, 302);
    const location = new URL(approved.headers.get('location') ?? '');
    assert.equal(`${location.origin}${location.pathname}`, 'http://herald.test/recharge/paypal/return');
    assert.equal(location.searchParams.get('x'), '1');
    assert.equal(location.searchParams.get('token'), id);
    assert.match(location.searchParams.get('PayerID') ?? '', /^[A-Z0-9]{13}$/);
    assert.equal(peer.orders.get(id)?.status, 'APPROVED');
    assert.equal((await api('GET', `/v2/checkout/orders/${id}`)).body.status, 'APPROVED');
  });

  it('sends Cancel and return to cancel_url and leaves the order unapproved', async () => {
    const id = await create();
    const cancelled = await fetch(`${peer.base}/checkoutnow/cancel`, {
      method: 'POST',
      body: new URLSearchParams({ token: id }),
      redirect: 'manual',
    });
    assert.equal(cancelled.status, 302);
    assert.equal(cancelled.headers.get('location'), `http://herald.test/recharge/paypal/cancel?token=${id}`);
    assert.equal(peer.orders.get(id)?.status, 'CREATED');
    assert.equal((await fetch(`${peer.base}/checkoutnow?token=UNKNOWN`)).status, 404);
  });

  it('captures only approved orders, once, and replays a capture by its request id', async () => {
    const id = await create();
    const early = await api('POST', `/v2/checkout/orders/${id}/capture`, {});
    assert.equal(early.status, 422);
    assert.equal(issueOf(early.body), 'ORDER_NOT_APPROVED');

    peer.approve(id);
    const captured = await api(
      'POST',
      `/v2/checkout/orders/${id}/capture`,
      {},
      { 'PayPal-Request-Id': 'cap-1' },
    );
    assert.equal(captured.status, 201);
    assert.equal(captured.body.status, 'COMPLETED');
    const unit = (captured.body.purchase_units as Record<string, unknown>[])[0] as {
      payments: { captures: Record<string, unknown>[] };
    };
    const capture = unit.payments.captures[0] as Record<string, unknown>;
    assert.equal(capture.status, 'COMPLETED');
    assert.deepEqual(capture.amount, { currency_code: 'USD', value: '15.00' });
    assert.equal(capture.final_capture, true);
    assert.equal(capture.custom_id, 'R20250101000001');
    assert.deepEqual(capture.seller_receivable_breakdown, {
      gross_amount: { currency_code: 'USD', value: '15.00' },
    });
    assert.equal(typeof capture.create_time, 'string');
    assert.equal(typeof capture.update_time, 'string');
    assert.deepEqual(peer.orders.get(id)?.capture, { id: capture.id, status: 'COMPLETED' });

    const replay = await api(
      'POST',
      `/v2/checkout/orders/${id}/capture`,
      {},
      { 'PayPal-Request-Id': 'cap-1' },
    );
    assert.equal(replay.status, 201);
    assert.deepEqual(replay.body, captured.body);

    const again = await api(
      'POST',
      `/v2/checkout/orders/${id}/capture`,
      {},
      { 'PayPal-Request-Id': 'cap-2' },
    );
    assert.equal(again.status, 422);
    assert.equal(issueOf(again.body), 'ORDER_ALREADY_CAPTURED');

    const read = await api('GET', `/v2/checkout/orders/${id}`);
    assert.deepEqual(read.body.purchase_units, captured.body.purchase_units);
  });

  it('declines the next capture when asked, with the order COMPLETED', async () => {
    const id = await create();
    peer.approve(id);
    peer.declineNextCapture(id);
    const answer = await api('POST', `/v2/checkout/orders/${id}/capture`, {});
    assert.equal(answer.status, 201);
    assert.equal(answer.body.status, 'COMPLETED');
    assert.equal(peer.orders.get(id)?.capture?.status, 'DECLINED');
  });

  it('answers 404 RESOURCE_NOT_FOUND for unknown orders', async () => {
    for (const [method, path] of [
      ['GET', '/v2/checkout/orders/NOSUCHORDER000000'],
      ['POST', '/v2/checkout/orders/NOSUCHORDER000000/capture'],
    ] as const) {
      const answer = await api(method, path, method === 'POST' ? {} : undefined);
      assert.equal(answer.status, 404);
      assert.equal(answer.body.name, 'RESOURCE_NOT_FOUND');
    }
  });

  it('signs webhook deliveries that its postback verifies, and fails forged or misaddressed ones', async () => {
    const id = await create();
    peer.approve(id);
    await api('POST', `/v2/checkout/orders/${id}/capture`, {});

    assert.equal(await peer.sendWebhook(receiverUrl, 'PAYMENT.CAPTURE.COMPLETED', id), 200);
    const delivery = received.at(-1) as Received;
    assert.equal(delivery.headers['paypal-auth-algo'], 'SHA256withRSA');
    assert.match(String(delivery.headers['paypal-cert-url']), /^http:\/\/127\.0\.0\.1:\d+\//);
    const event = JSON.parse(delivery.body) as Record<string, unknown>;
    assert.equal(event.event_type, 'PAYMENT.CAPTURE.COMPLETED');
    const resource = event.resource as Record<string, unknown>;
    assert.equal(resource.id, peer.orders.get(id)?.capture?.id);
    assert.equal(resource.custom_id, 'R20250101000001');
    assert.deepEqual(resource.supplementary_data, { related_ids: { order_id: id } });
    assert.deepEqual(peer.webhooks.at(-1), { url: receiverUrl, event, status: 200 });

    assert.deepEqual((await verify(delivery)).body, { verification_status: 'SUCCESS' });
    assert.deepEqual((await verify(delivery, { webhook_id: 'WH-SOMEONE-ELSE' })).body, {
      verification_status: 'FAILURE',
    });
    assert.deepEqual((await verify(delivery, { transmission_time: new Date(0).toISOString() })).body, {
      verification_status: 'FAILURE',
    });

    await peer.sendWebhook(receiverUrl, 'PAYMENT.CAPTURE.COMPLETED', id, { forge: true });
    const forged = received.at(-1) as Received;
    assert.equal((JSON.parse(forged.body).resource as { amount: { value: string } }).amount.value, '9999.00');
    assert.deepEqual((await verify(forged)).body, { verification_status: 'FAILURE' });
  });

  it('sends CHECKOUT.ORDER.APPROVED with the order as resource', async () => {
    const id = await create();
    peer.approve(id);
    await peer.sendWebhook(receiverUrl, 'CHECKOUT.ORDER.APPROVED', id);
    const delivery = received.at(-1) as Received;
    const event = JSON.parse(delivery.body) as { resource: Record<string, unknown>; resource_type: string };
    assert.equal(event.resource_type, 'checkout-order');
    assert.equal(event.resource.id, id);
    assert.equal(event.resource.status, 'APPROVED');
    assert.deepEqual((await verify(delivery)).body, { verification_status: 'SUCCESS' });
  });

  it('records the calls made', () => {
    const captures = peer.calls.filter((call) => call.method === 'POST' && call.path.endsWith('/capture'));
    assert.ok(captures.length >= 5);
    assert.ok(peer.calls.some((call) => call.method === 'POST' && call.path === '/v1/oauth2/token'));
  });
});
