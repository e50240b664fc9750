/**
 * A loopback PayPal REST API for Orders v2 (payments-and-identity.md §2): the OAuth2 token, order
 * create / get / capture, a tiny approve page standing in for paypal.com/checkoutnow, signed webhook
 * deliveries and the verify-webhook-signature postback. Errors have PayPal's shape
 * `{name, message, debug_id, details[{field, issue, description}], links}`.
 *
 * Webhook signatures follow PayPal's scheme: `<transmission id>|<time>|<webhook id>|<CRC32 of the
 * body>` signed SHA256withRSA with the peer's key pair, made at start. The peer serialises each event
 * with JSON.stringify and keeps that raw body per transmission id (`rawBodies`); the postback
 * re-serialises the `webhook_event` it is handed with JSON.stringify, which gives back those very
 * bytes for an event delivered unchanged, so its CRC matches only when the receiver passed on what it
 * was sent. Written from the protocol text, independently of Herald's client, so the two check each
 * other.
 */
import { generateKeyPairSync, randomBytes, randomInt, randomUUID, sign, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { escapeHtml, readBody, sendHtml } from './http-helpers.ts';

export interface PaypalPeerOptions {
  clientId?: string;
  clientSecret?: string;
  webhookId?: string;
}

export interface PaypalPeerOrder {
  id: string;
  status: string;
  currency: string;
  value: string;
  customId: string | null;
  returnUrl: string;
  cancelUrl: string;
  requestId: string | null;
  capture: { id: string; status: string } | null;
}

export interface PaypalWebhookDelivery {
  url: string;
  event: Record<string, unknown>;
  /** Herald's HTTP status, 0 when it could not be reached. */
  status: number;
}

export interface PaypalPeer {
  /** http://127.0.0.1:<port> — the apiBase Herald is configured with; the approve page is served here too. */
  base: string;
  clientId: string;
  clientSecret: string;
  webhookId: string;
  orders: Map<string, PaypalPeerOrder>;
  /** Calls made (method + path), for assertions such as "captured once". */
  calls: { method: string; path: string }[];
  webhooks: PaypalWebhookDelivery[];
  /** Approve as the buyer would on the approve page (no browser). */
  approve(orderId: string): void;
  /** The next capture of this order is DECLINED (capture status DECLINED, order COMPLETED, as PayPal can). */
  declineNextCapture(orderId: string): void;
  /**
   * Delivers a webhook event for the order to `url`, signed as PayPal signs. type e.g.
   * 'PAYMENT.CAPTURE.COMPLETED' (resource = the capture) or 'CHECKOUT.ORDER.APPROVED' (resource =
   * the order). `forge: true` → a body changed after signing. Answers the HTTP status Herald gave.
   */
  sendWebhook(url: string, type: string, orderId: string, options?: { forge?: boolean }): Promise<number>;
  close(): Promise<void>;
}

interface OrderDetails {
  description: string | null;
  createTime: string;
  updateTime: string;
  payerId: string | null;
  declineNext: boolean;
  captureTime: string | null;
}

interface Stored {
  status: number;
  body: Record<string, unknown>;
}

interface ErrorDetail {
  field?: string;
  issue: string;
  description: string;
}

const VALUE = /^\d+(\.\d{1,2})?$/;
const CURRENCY = /^[A-Z]{3}$/;
const TOKEN_LIFETIME_S = 32_400;
const WEBHOOK_TIMEOUT_MS = 5_000;
const AUTH_ALGO = 'SHA256withRSA';
const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

const ERROR_NAMES: Record<number, { name: string; message: string }> = {
  400: {
    name: 'INVALID_REQUEST',
    message: 'Request is not well-formed, syntactically incorrect, or violates schema.',
  },
  401: {
    name: 'AUTHENTICATION_FAILURE',
    message:
      'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
  },
  404: { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.' },
  422: {
    name: 'UNPROCESSABLE_ENTITY',
    message:
      'The requested action could not be performed, semantically incorrect, or failed business validation.',
  },
};

export async function startPaypalPeer(options: PaypalPeerOptions = {}): Promise<PaypalPeer> {
  const clientId = options.clientId ?? `Peer-${randomId(20)}`;
  const clientSecret = options.clientSecret ?? `EP-${randomBytes(24).toString('base64url')}`;
  const webhookId = options.webhookId ?? randomId(17);
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyPem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const orders = new Map<string, PaypalPeerOrder>();
  const details = new Map<string, OrderDetails>();
  const calls: { method: string; path: string }[] = [];
  const webhooks: PaypalWebhookDelivery[] = [];
  const tokens = new Map<string, number>();
  const createdByRequestId = new Map<string, string>();
  const capturesByRequestId = new Map<string, Stored>();
  /** The exact body of each delivery, by transmission id (see the header comment). */
  const rawBodies = new Map<string, string>();
  let base = '';

  const certUrl = () => `${base}/v1/notifications/certs/CERT-360caa42-peer`;

  const detailsOf = (id: string): { order: PaypalPeerOrder; at: OrderDetails } => {
    const order = orders.get(id);
    const at = details.get(id);
    if (!order || !at) throw new Error(`paypal peer: no order ${id}`);
    return { order, at };
  };

  const approveOrder = (id: string): PaypalPeerOrder => {
    const { order, at } = detailsOf(id);
    if (order.status === 'CREATED') {
      order.status = 'APPROVED';
      at.payerId = randomId(13);
      at.updateTime = isoNow();
    }
    return order;
  };

  const captureJson = (order: PaypalPeerOrder, at: OrderDetails): Record<string, unknown> | null => {
    if (!order.capture) return null;
    const amount = { currency_code: order.currency, value: order.value };
    const time = at.captureTime ?? at.updateTime;
    const capture: Record<string, unknown> = {
      id: order.capture.id,
      status: order.capture.status,
      amount,
      final_capture: true,
      seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED'] },
      seller_receivable_breakdown: { gross_amount: amount },
      create_time: time,
      update_time: time,
      links: [
        link(`${base}/v2/payments/captures/${order.capture.id}`, 'self', 'GET'),
        link(`${base}/v2/checkout/orders/${order.id}`, 'up', 'GET'),
      ],
    };
    if (order.customId) capture.custom_id = order.customId;
    if (order.capture.status === 'DECLINED') {
      capture.status_details = { reason: 'DECLINED_BY_RISK_FRAUD_FILTERS' };
    }
    return capture;
  };

  const orderJson = (id: string): Record<string, unknown> => {
    const { order, at } = detailsOf(id);
    const unit: Record<string, unknown> = {
      reference_id: 'default',
      amount: { currency_code: order.currency, value: order.value },
      payee: { merchant_id: 'PEERMERCHANT1' },
    };
    if (order.customId) unit.custom_id = order.customId;
    if (at.description) unit.description = at.description;
    const capture = captureJson(order, at);
    if (capture) unit.payments = { captures: [capture] };
    const body: Record<string, unknown> = {
      id: order.id,
      intent: 'CAPTURE',
      status: order.status,
      purchase_units: [unit],
      create_time: at.createTime,
      update_time: at.updateTime,
      links: orderLinks(order),
    };
    if (at.payerId) {
      body.payment_source = {
        paypal: {
          email_address: 'buyer@peer.paypal.test',
          account_id: at.payerId,
          account_status: 'VERIFIED',
        },
      };
      body.payer = { payer_id: at.payerId, email_address: 'buyer@peer.paypal.test' };
    }
    return body;
  };

  const orderLinks = (order: PaypalPeerOrder) => {
    const self = `${base}/v2/checkout/orders/${order.id}`;
    const links = [link(self, 'self', 'GET')];
    if (order.status === 'CREATED')
      links.push(link(`${base}/checkoutnow?token=${order.id}`, 'approve', 'GET'));
    if (order.status !== 'COMPLETED') {
      links.push(link(self, 'update', 'PATCH'), link(`${self}/capture`, 'capture', 'POST'));
    }
    return links;
  };

  const createOrder = (body: unknown, requestId: string | null): Stored => {
    if (requestId) {
      const earlier = createdByRequestId.get(requestId);
      if (earlier) return { status: 200, body: createdAnswer(earlier) };
    }
    if (!isRecord(body))
      return paypalError(400, [
        { issue: 'MALFORMED_REQUEST_JSON', description: 'The request JSON is not well formed.' },
      ]);
    if (body.intent === undefined) {
      return paypalError(400, [
        {
          field: '/intent',
          issue: 'MISSING_REQUIRED_PARAMETER',
          description: 'A required field / parameter is missing.',
        },
      ]);
    }
    if (body.intent !== 'CAPTURE') {
      return paypalError(400, [
        {
          field: '/intent',
          issue: 'INVALID_PARAMETER_VALUE',
          description: 'This peer takes intent CAPTURE only.',
        },
      ]);
    }
    const units = body.purchase_units;
    if (!Array.isArray(units) || units.length === 0) {
      return paypalError(400, [
        {
          field: '/purchase_units',
          issue: 'MISSING_REQUIRED_PARAMETER',
          description: 'A required field / parameter is missing.',
        },
      ]);
    }
    if (units.length !== 1) {
      return paypalError(400, [
        {
          field: '/purchase_units',
          issue: 'INVALID_ARRAY_MAX_ITEMS',
          description: 'This peer takes exactly one purchase unit.',
        },
      ]);
    }
    const unit = isRecord(units[0]) ? units[0] : {};
    const amount = isRecord(unit.amount) ? unit.amount : null;
    const field = "/purchase_units/@reference_id=='default'/amount";
    if (!amount) {
      return paypalError(400, [
        {
          field,
          issue: 'MISSING_REQUIRED_PARAMETER',
          description: 'A required field / parameter is missing.',
        },
      ]);
    }
    if (typeof amount.currency_code !== 'string' || !CURRENCY.test(amount.currency_code)) {
      return paypalError(400, [
        {
          field: `${field}/currency_code`,
          issue: 'INVALID_PARAMETER_SYNTAX',
          description: 'The value of a field does not conform to the expected format.',
        },
      ]);
    }
    if (typeof amount.value !== 'string' || !/^\d+(\.\d+)?$/.test(amount.value)) {
      return paypalError(400, [
        {
          field: `${field}/value`,
          issue: 'INVALID_PARAMETER_SYNTAX',
          description: 'The value of a field does not conform to the expected format.',
        },
      ]);
    }
    if (!VALUE.test(amount.value)) {
      return paypalError(422, [
        {
          field: `${field}/value`,
          issue: 'DECIMAL_PRECISION',
          description: 'If the currency supports decimals, only two decimal place precision is supported.',
        },
      ]);
    }
    const customId = typeof unit.custom_id === 'string' && unit.custom_id ? unit.custom_id : null;
    if (customId && customId.length > 127) {
      return paypalError(400, [
        {
          field: "/purchase_units/@reference_id=='default'/custom_id",
          issue: 'INVALID_STRING_MAX_LENGTH',
          description: 'The value of a field is too long.',
        },
      ]);
    }
    const source =
      isRecord(body.payment_source) && isRecord(body.payment_source.paypal) ? body.payment_source.paypal : {};
    const context = isRecord(source.experience_context)
      ? source.experience_context
      : isRecord(body.application_context)
        ? body.application_context
        : {};
    const id = randomId(17);
    const time = isoNow();
    orders.set(id, {
      id,
      status: 'CREATED',
      currency: amount.currency_code,
      value: amount.value,
      customId,
      returnUrl: typeof context.return_url === 'string' ? context.return_url : '',
      cancelUrl: typeof context.cancel_url === 'string' ? context.cancel_url : '',
      requestId,
      capture: null,
    });
    details.set(id, {
      description: typeof unit.description === 'string' ? unit.description : null,
      createTime: time,
      updateTime: time,
      payerId: null,
      declineNext: false,
      captureTime: null,
    });
    if (requestId) createdByRequestId.set(requestId, id);
    return { status: 201, body: createdAnswer(id) };
  };

  const createdAnswer = (id: string): Record<string, unknown> => {
    const { order } = detailsOf(id);
    return { id, status: order.status, links: orderLinks(order) };
  };

  const captureOrder = (id: string, requestId: string | null): Stored => {
    if (requestId) {
      const earlier = capturesByRequestId.get(requestId);
      if (earlier) return earlier;
    }
    const order = orders.get(id);
    if (!order) return notFound(id);
    if (order.status === 'COMPLETED') {
      return paypalError(422, [
        {
          issue: 'ORDER_ALREADY_CAPTURED',
          description: 'Order already captured. If intent=CAPTURE only one capture per order is allowed.',
        },
      ]);
    }
    if (order.status !== 'APPROVED') {
      return paypalError(422, [
        {
          issue: 'ORDER_NOT_APPROVED',
          description:
            'Payer has not yet approved the Order for payment. Please redirect the payer to the approve link.',
        },
      ]);
    }
    const { at } = detailsOf(id);
    const declined = at.declineNext;
    at.declineNext = false;
    order.status = 'COMPLETED';
    order.capture = { id: randomId(17), status: declined ? 'DECLINED' : 'COMPLETED' };
    at.captureTime = isoNow();
    at.updateTime = at.captureTime;
    const answer = { status: 201, body: orderJson(id) };
    if (requestId) capturesByRequestId.set(requestId, answer);
    return answer;
  };

  const verifySignature = (body: unknown): Stored => {
    if (!isRecord(body))
      return paypalError(400, [
        { issue: 'MALFORMED_REQUEST_JSON', description: 'The request JSON is not well formed.' },
      ]);
    const required = [
      'auth_algo',
      'cert_url',
      'transmission_id',
      'transmission_sig',
      'transmission_time',
      'webhook_id',
    ];
    const missing = required.filter((name) => typeof body[name] !== 'string' || !body[name]);
    if (missing.length > 0 || !isRecord(body.webhook_event)) {
      const name = missing[0] ?? 'webhook_event';
      return paypalError(400, [
        {
          field: `/${name}`,
          issue: 'MISSING_REQUIRED_PARAMETER',
          description: 'A required field / parameter is missing.',
        },
      ]);
    }
    const fields = body as Record<string, string>;
    const signed = `${fields.transmission_id}|${fields.transmission_time}|${fields.webhook_id}|${crc32(JSON.stringify(body.webhook_event))}`;
    let ok = false;
    try {
      ok =
        fields.webhook_id === webhookId &&
        fields.auth_algo === AUTH_ALGO &&
        fields.cert_url === certUrl() &&
        verify(
          'sha256',
          Buffer.from(signed, 'utf8'),
          keys.publicKey,
          Buffer.from(fields.transmission_sig ?? '', 'base64'),
        );
    } catch {
      ok = false;
    }
    return { status: 200, body: { verification_status: ok ? 'SUCCESS' : 'FAILURE' } };
  };

  const issueToken = (req: IncomingMessage, raw: string): Stored => {
    const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64')}`;
    if (req.headers.authorization !== expected) {
      return {
        status: 401,
        body: { error: 'invalid_client', error_description: 'Client Authentication failed' },
      };
    }
    if (new URLSearchParams(raw).get('grant_type') !== 'client_credentials') {
      return {
        status: 400,
        body: { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' },
      };
    }
    const token = `A21AA${randomBytes(48).toString('base64url')}`;
    tokens.set(token, Date.now() + TOKEN_LIFETIME_S * 1000);
    return {
      status: 200,
      body: {
        scope:
          'https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/applications/webhooks',
        access_token: token,
        token_type: 'Bearer',
        app_id: `APP-${randomId(17)}`,
        expires_in: TOKEN_LIFETIME_S,
        nonce: `${new Date().toISOString().slice(0, 19)}Z${randomBytes(16).toString('base64url')}`,
      },
    };
  };

  const authorised = (req: IncomingMessage): boolean => {
    const match = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    const expires = match?.[1] ? tokens.get(match[1]) : undefined;
    return expires !== undefined && expires > Date.now();
  };

  const api = (req: IncomingMessage, path: string, raw: string): Stored | null => {
    const method = req.method ?? 'GET';
    if (path === '/v1/oauth2/token' && method === 'POST') return issueToken(req, raw);
    const orderMatch = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path);
    const known =
      (path === '/v2/checkout/orders' && method === 'POST') ||
      (orderMatch && (orderMatch[2] ? method === 'POST' : method === 'GET')) ||
      (path === '/v1/notifications/verify-webhook-signature' && method === 'POST');
    if (!known) return null;
    if (!authorised(req)) return paypalError(401, []);
    const requestId = headerOf(req, 'paypal-request-id');
    let body: unknown = null;
    if (raw.trim()) {
      try {
        body = JSON.parse(raw);
      } catch {
        return paypalError(400, [
          { issue: 'MALFORMED_REQUEST_JSON', description: 'The request JSON is not well formed.' },
        ]);
      }
    }
    if (path === '/v2/checkout/orders') return createOrder(body, requestId);
    if (path === '/v1/notifications/verify-webhook-signature') return verifySignature(body);
    const id = decodeURIComponent(orderMatch?.[1] ?? '');
    if (orderMatch?.[2]) return captureOrder(id, requestId);
    return orders.has(id) ? { status: 200, body: orderJson(id) } : notFound(id);
  };

  const pages = (req: IncomingMessage, url: URL, raw: string, res: ServerResponse): boolean => {
    if (url.pathname === '/checkoutnow' && req.method === 'GET') {
      const order = orders.get(url.searchParams.get('token') ?? '');
      if (!order) sendHtml(res, messagePage('This checkout session is not valid.'), 404);
      else sendHtml(res, approvePage(order));
      return true;
    }
    if (
      (url.pathname === '/checkoutnow/approve' || url.pathname === '/checkoutnow/cancel') &&
      req.method === 'POST'
    ) {
      const order = orders.get(new URLSearchParams(raw).get('token') ?? '');
      if (!order) {
        sendHtml(res, messagePage('This checkout session is not valid.'), 404);
        return true;
      }
      const approving = url.pathname === '/checkoutnow/approve';
      if (approving && order.status !== 'CREATED' && order.status !== 'APPROVED') {
        sendHtml(res, messagePage('This order can no longer be approved.'), 409);
        return true;
      }
      if (approving) approveOrder(order.id);
      const query = new URLSearchParams({ token: order.id });
      const payerId = details.get(order.id)?.payerId;
      if (approving && payerId) query.set('PayerID', payerId);
      const target = approving ? order.returnUrl : order.cancelUrl;
      res.writeHead(302, { location: `${target}${target.includes('?') ? '&' : '?'}${query}` });
      res.end();
      return true;
    }
    if (url.pathname === new URL(certUrl()).pathname && req.method === 'GET') {
      // A stand-in for PayPal's certificate: the bare public key, PEM (the postback is what Herald uses).
      res.writeHead(200, { 'content-type': 'application/x-pem-file' });
      res.end(publicKeyPem);
      return true;
    }
    return false;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    calls.push({ method: req.method ?? 'GET', path: url.pathname });
    const raw = await readBody(req);
    if (pages(req, url, raw, res)) return;
    const answer = api(req, url.pathname, raw) ?? notFoundPath(url.pathname);
    res.writeHead(answer.status, {
      'content-type': 'application/json',
      'paypal-debug-id': String(answer.body.debug_id ?? randomHex(13)),
    });
    res.end(JSON.stringify(answer.body));
  };

  const sendWebhook = async (
    url: string,
    type: string,
    orderId: string,
    sendOptions: { forge?: boolean } = {},
  ): Promise<number> => {
    const { order, at } = detailsOf(orderId);
    const capture = captureJson(order, at);
    let resource: Record<string, unknown>;
    if (type.startsWith('PAYMENT.CAPTURE.')) {
      if (!capture) throw new Error(`paypal peer: order ${orderId} has no capture to send ${type} for`);
      resource = { ...capture, supplementary_data: { related_ids: { order_id: order.id } } };
    } else {
      resource = orderJson(orderId);
    }
    const isCapture = type.startsWith('PAYMENT.CAPTURE.');
    const event: Record<string, unknown> = {
      id: `WH-${randomId(8)}-${randomId(17)}`,
      event_version: '1.0',
      create_time: isoNow(),
      resource_type: isCapture ? 'capture' : 'checkout-order',
      resource_version: '2.0',
      event_type: type,
      summary: isCapture
        ? `Payment ${String(resource.status).toLowerCase()} for ${order.currency} ${order.value}`
        : `An order has been ${order.status.toLowerCase()}`,
      resource,
      links: [link(`${base}/v1/notifications/webhooks-events/${randomId(17)}`, 'self', 'GET')],
    };
    const signedBody = JSON.stringify(event);
    const transmissionId = randomUUID();
    const transmissionTime = isoNow();
    const signature = sign(
      'sha256',
      Buffer.from(`${transmissionId}|${transmissionTime}|${webhookId}|${crc32(signedBody)}`, 'utf8'),
      keys.privateKey,
    ).toString('base64');
    rawBodies.set(transmissionId, signedBody);
    const delivered = sendOptions.forge ? forged(event) : event;
    const body = sendOptions.forge ? JSON.stringify(delivered) : signedBody;
    let status = 0;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'paypal-transmission-id': transmissionId,
          'paypal-transmission-time': transmissionTime,
          'paypal-transmission-sig': signature,
          'paypal-cert-url': certUrl(),
          'paypal-auth-algo': AUTH_ALGO,
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      status = response.status;
      await response.arrayBuffer();
    } catch {
      // Herald unreachable: recorded with status 0.
    }
    webhooks.push({ url, event: delivered, status });
    return status;
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ name: 'INTERNAL_SERVER_ERROR', message: String(error), debug_id: randomHex(13) }),
        );
      } else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    base,
    clientId,
    clientSecret,
    webhookId,
    orders,
    calls,
    webhooks,
    approve: (orderId) => {
      const order = approveOrder(orderId);
      if (order.status !== 'APPROVED') throw new Error(`paypal peer: order ${orderId} is ${order.status}`);
    },
    declineNextCapture: (orderId) => {
      detailsOf(orderId).at.declineNext = true;
    },
    sendWebhook,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The event with its amount (or, failing that, its summary) changed after it was signed. */
function forged(event: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(event);
  const resource = isRecord(copy.resource) ? copy.resource : {};
  const units = Array.isArray(resource.purchase_units) ? resource.purchase_units : [];
  const amount = isRecord(resource.amount)
    ? resource.amount
    : isRecord(units[0]) && isRecord(units[0].amount)
      ? units[0].amount
      : null;
  if (amount) amount.value = '9999.00';
  else copy.summary = `${String(copy.summary)} (changed)`;
  return copy;
}

function paypalError(status: number, details: ErrorDetail[]): Stored {
  const known = ERROR_NAMES[status] ?? {
    name: 'INTERNAL_SERVER_ERROR',
    message: 'An internal server error occurred.',
  };
  const body: Record<string, unknown> = { name: known.name, message: known.message, debug_id: randomHex(13) };
  if (details.length > 0) {
    body.details = details;
    body.links = details.map((detail) =>
      link(
        `https://developer.paypal.com/docs/api/orders/v2/#error-${detail.issue}`,
        'information_link',
        'GET',
      ),
    );
  }
  return { status, body };
}

function notFound(id: string): Stored {
  return paypalError(404, [
    {
      field: 'order_id',
      issue: 'INVALID_RESOURCE_ID',
      description: `Specified resource ID ${id} does not exist.`,
    },
  ]);
}

function notFoundPath(path: string): Stored {
  return paypalError(404, [{ issue: 'INVALID_RESOURCE_ID', description: `No resource at ${path}.` }]);
}

function link(href: string, rel: string, method: string) {
  return { href, rel, method };
}

function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first ? first : null;
}

function randomId(length: number): string {
  let id = '';
  while (id.length < length) id += ID_CHARS[randomInt(ID_CHARS.length)];
  return id;
}

function randomHex(length: number): string {
  return randomBytes(length).toString('hex').slice(0, length);
}

function isoNow(): string {
  return `${new Date().toISOString().slice(0, 19)}Z`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messagePage(message: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>PayPal test checkout</title></head><body><p>${escapeHtml(message)}</p></body></html>`;
}

function approvePage(order: PaypalPeerOrder): string {
  const token = escapeHtml(order.id);
  return `<!doctype html><html><head><meta charset="utf-8"><title>PayPal test checkout</title></head><body>
<h1>Pay with PayPal</h1>
<p class="amount">${escapeHtml(order.currency)} ${escapeHtml(order.value)}</p>
<form method="post" action="/checkoutnow/approve">
<input type="hidden" name="token" value="${token}">
<button type="submit">Pay Now</button>
</form>
<form method="post" action="/checkoutnow/cancel">
<input type="hidden" name="token" value="${token}">
<button type="submit">Cancel and return</button>
</form>
</body></html>`;
}
