import { AppError } from '@herald/shared';

export interface PaypalSettings {
  clientId: string;
  clientSecret: string;
  /** The id of Herald's subscribed webhook, for signature verification. */
  webhookId: string;
  /** https://api-m.paypal.com (tests: the peer's base URL). */
  apiBase: string;
}

export interface PaypalCapture {
  id: string;
  status: 'COMPLETED' | 'DECLINED' | 'PENDING' | 'FAILED' | 'REFUNDED' | 'PARTIALLY_REFUNDED';
  currency: string;
  value: string;
  customId: string | null;
}

export interface PaypalOrder {
  id: string;
  status: 'CREATED' | 'SAVED' | 'APPROVED' | 'VOIDED' | 'COMPLETED' | 'PAYER_ACTION_REQUIRED';
  customId: string | null;
  currency: string;
  value: string;
  capture: PaypalCapture | null;
}

export interface PaypalNewOrder {
  /** PayPal-Request-Id: the same id answers the same order (PayPal keeps it 6 hours). */
  requestId: string;
  /** Herald's recharge order number; echoed on the capture. */
  customId: string;
  currency: string;
  value: string;
  description: string;
  returnUrl: string;
  cancelUrl: string;
  /** e.g. "zh-CN", "en-US"; PayPal picks one when absent. */
  locale?: string;
}

/** How long a call to PayPal may take before it counts as unreachable. */
export const PAYPAL_TIMEOUT_MS = 10_000;

const PROVIDER = 'PayPal';
const BRAND_NAME = 'Herald';
/** A token is dropped this long before PayPal says it expires. */
const TOKEN_MARGIN_MS = 60_000;
const ORDER_STATUSES: readonly string[] = [
  'CREATED',
  'SAVED',
  'APPROVED',
  'VOIDED',
  'COMPLETED',
  'PAYER_ACTION_REQUIRED',
];
const CAPTURE_STATUSES: readonly string[] = [
  'COMPLETED',
  'DECLINED',
  'PENDING',
  'FAILED',
  'REFUNDED',
  'PARTIALLY_REFUNDED',
];
const WEBHOOK_HEADERS = {
  transmission_id: 'paypal-transmission-id',
  transmission_time: 'paypal-transmission-time',
  transmission_sig: 'paypal-transmission-sig',
  cert_url: 'paypal-cert-url',
  auth_algo: 'paypal-auth-algo',
} as const;

interface Answer {
  status: number;
  body: Record<string, unknown> | null;
}

/**
 * PayPal REST, Orders v2 (reference: payments-and-identity.md §2): create an order the buyer
 * approves on PayPal's page, capture it, read it back, and check a webhook delivery by PayPal's
 * verification postback (§2.6) rather than by fetching certificates.
 *
 * Calls carry an OAuth2 client-credentials token, kept until a minute before it expires and fetched
 * again once if PayPal refuses it. Creating and capturing send a PayPal-Request-Id so a retried call
 * answers the first result instead of a second order or capture. A timeout or a refused connection
 * is PAYMENT_PROVIDER_UNREACHABLE; any other failure is PAYMENT_PROVIDER_ERROR with PayPal's error
 * name, issues and debug_id. The client secret and the token never appear in an error.
 */
export class PaypalClient {
  private readonly settings: PaypalSettings;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private token: { value: string; expiresAt: number } | null = null;
  private pendingToken: Promise<string> | null = null;

  constructor(settings: PaypalSettings, options: { timeoutMs?: number; now?: () => number } = {}) {
    this.settings = settings;
    this.timeoutMs = options.timeoutMs ?? PAYPAL_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
  }

  async createOrder(order: PaypalNewOrder): Promise<{ id: string; approveUrl: string }> {
    const experience: Record<string, string> = {
      return_url: order.returnUrl,
      cancel_url: order.cancelUrl,
      brand_name: BRAND_NAME,
      shipping_preference: 'NO_SHIPPING',
      user_action: 'PAY_NOW',
    };
    if (order.locale) experience.locale = order.locale;
    const answer = await this.call('POST', '/v2/checkout/orders', {
      body: {
        intent: 'CAPTURE',
        purchase_units: [
          {
            amount: { currency_code: order.currency, value: order.value },
            custom_id: order.customId,
            description: order.description.slice(0, 127),
          },
        ],
        payment_source: { paypal: { experience_context: experience } },
      },
      requestId: order.requestId,
    });
    if (answer.status !== 200 && answer.status !== 201) throw answerError(answer);
    const body = answer.body ?? {};
    const links = Array.isArray(body.links) ? body.links : [];
    const link = links.find(
      (candidate): candidate is { href: string } =>
        isRecord(candidate) &&
        (candidate.rel === 'approve' || candidate.rel === 'payer-action') &&
        typeof candidate.href === 'string',
    );
    if (typeof body.id !== 'string' || !body.id || !link) {
      throw providerError('no order id or approve link in the answer');
    }
    return { id: body.id, approveUrl: link.href };
  }

  async capture(orderId: string, requestId: string): Promise<PaypalOrder> {
    const answer = await this.call('POST', `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`, {
      body: {},
      requestId,
    });
    if (answer.status === 200 || answer.status === 201) return orderOf(answer.body);
    if (answer.status === 422 && issuesOf(answer.body).includes('ORDER_ALREADY_CAPTURED')) {
      const order = await this.getOrder(orderId);
      if (!order) throw providerError('the captured order is not found');
      return order;
    }
    throw answerError(answer);
  }

  async getOrder(orderId: string): Promise<PaypalOrder | null> {
    const answer = await this.call('GET', `/v2/checkout/orders/${encodeURIComponent(orderId)}`);
    if (answer.status === 200) return orderOf(answer.body);
    if (answer.status === 404 && answer.body?.name === 'RESOURCE_NOT_FOUND') return null;
    throw answerError(answer);
  }

  /** True only when PayPal answers SUCCESS for this delivery; any failure on the way is false. */
  async verifyWebhook(
    headers: Record<string, string | string[] | undefined>,
    rawBody: string,
  ): Promise<boolean> {
    try {
      const lower = new Map<string, string>();
      for (const [name, value] of Object.entries(headers)) {
        const first = Array.isArray(value) ? value[0] : value;
        if (typeof first === 'string') lower.set(name.toLowerCase(), first);
      }
      const request: Record<string, unknown> = {};
      for (const [field, header] of Object.entries(WEBHOOK_HEADERS)) {
        const value = lower.get(header);
        if (!value) return false;
        request[field] = value;
      }
      const event: unknown = JSON.parse(rawBody);
      if (!isRecord(event)) return false;
      request.webhook_id = this.settings.webhookId;
      request.webhook_event = event;
      const answer = await this.call('POST', '/v1/notifications/verify-webhook-signature', {
        body: request,
      });
      return answer.status === 200 && answer.body?.verification_status === 'SUCCESS';
    } catch {
      return false;
    }
  }

  /** One API call with a bearer token; a refused token is dropped and the call made once more. */
  private async call(
    method: 'GET' | 'POST',
    path: string,
    options: { body?: unknown; requestId?: string } = {},
  ): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.accessToken();
      const headers: Record<string, string> = {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        prefer: 'return=representation',
      };
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      if (options.requestId) headers['paypal-request-id'] = options.requestId;
      const answer = await this.send(path, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      if (answer.status !== 401 || attempt > 0) return answer;
      this.token = null;
    }
  }

  private accessToken(): Promise<string> {
    if (this.token && this.now() < this.token.expiresAt) return Promise.resolve(this.token.value);
    this.pendingToken ??= this.fetchToken().finally(() => {
      this.pendingToken = null;
    });
    return this.pendingToken;
  }

  private async fetchToken(): Promise<string> {
    const basic = Buffer.from(`${this.settings.clientId}:${this.settings.clientSecret}`, 'utf8');
    const answer = await this.send('/v1/oauth2/token', {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic.toString('base64')}`,
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const body = answer.body;
    if (answer.status !== 200 || !body) {
      const reason = typeof body?.error === 'string' ? body.error : null;
      throw reason ? providerError(`access token refused: ${clip(reason)}`) : answerError(answer);
    }
    const { access_token: value, expires_in: expiresIn } = body;
    if (typeof value !== 'string' || !value || typeof expiresIn !== 'number') {
      throw providerError('no access token in the answer');
    }
    this.token = { value, expiresAt: this.now() + expiresIn * 1000 - TOKEN_MARGIN_MS };
    return value;
  }

  private async send(path: string, init: RequestInit): Promise<Answer> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.settings.apiBase}${path}`, {
        ...init,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch {
      throw new AppError('PAYMENT_PROVIDER_UNREACHABLE', { provider: PROVIDER });
    }
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (response.ok && !isRecord(body)) throw providerError(`unreadable answer (HTTP ${response.status})`);
    return { status: response.status, body: isRecord(body) ? body : null };
  }
}

/** An order as PayPal answers it; its capture is purchase_units[0].payments.captures[0]. */
function orderOf(body: Record<string, unknown> | null): PaypalOrder {
  const id = body?.id;
  const status = body?.status;
  if (typeof id !== 'string' || !id || typeof status !== 'string' || !ORDER_STATUSES.includes(status)) {
    throw providerError('no order id or status in the answer');
  }
  const units = body?.purchase_units;
  const unit = Array.isArray(units) && isRecord(units[0]) ? units[0] : null;
  if (!unit) throw providerError('no purchase unit in the answer');
  const payments = isRecord(unit.payments) ? unit.payments : null;
  const captures = Array.isArray(payments?.captures) ? payments.captures : [];
  const capture = isRecord(captures[0]) ? captureOf(captures[0]) : null;
  const amount =
    amountOf(unit.amount) ?? (capture ? { currency: capture.currency, value: capture.value } : null);
  if (!amount) throw providerError('no amount in the answer');
  return {
    id,
    status: status as PaypalOrder['status'],
    customId: stringOrNull(unit.custom_id),
    currency: amount.currency,
    value: amount.value,
    capture,
  };
}

function captureOf(capture: Record<string, unknown>): PaypalCapture {
  const { id, status } = capture;
  const amount = amountOf(capture.amount);
  if (
    typeof id !== 'string' ||
    !id ||
    typeof status !== 'string' ||
    !CAPTURE_STATUSES.includes(status) ||
    !amount
  ) {
    throw providerError('incomplete capture in the answer');
  }
  return {
    id,
    status: status as PaypalCapture['status'],
    currency: amount.currency,
    value: amount.value,
    customId: stringOrNull(capture.custom_id),
  };
}

function amountOf(amount: unknown): { currency: string; value: string } | null {
  if (!isRecord(amount)) return null;
  const { currency_code: currency, value } = amount;
  return typeof currency === 'string' && typeof value === 'string' ? { currency, value } : null;
}

/** The `issue` of each entry in an error body's details. */
function issuesOf(body: Record<string, unknown> | null): string[] {
  const details = Array.isArray(body?.details) ? body.details : [];
  return details
    .map((detail) => (isRecord(detail) ? detail.issue : undefined))
    .filter((issue): issue is string => typeof issue === 'string');
}

/** PayPal's refusal as an error: its name, issues and debug_id, never anything of ours. */
function answerError(answer: Answer): AppError {
  const { body } = answer;
  const name = typeof body?.name === 'string' ? body.name : `HTTP ${answer.status}`;
  const issues = issuesOf(body);
  const debugId = typeof body?.debug_id === 'string' ? ` (debug_id ${body.debug_id})` : '';
  return providerError(`${name}${issues.length > 0 ? ` ${issues.join(', ')}` : ''}${debugId}`);
}

function providerError(reason: string): AppError {
  return new AppError('PAYMENT_PROVIDER_ERROR', { provider: PROVIDER, reason: clip(reason) });
}

function clip(text: string): string {
  return text.slice(0, 200);
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value ? value : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
