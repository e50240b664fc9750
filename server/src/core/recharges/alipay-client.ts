import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { AppError, beijingDateTime, yuanToFen } from '@herald/shared';

export interface AlipaySettings {
  appId: string;
  /** The merchant's partner id (2088…), checked against a notify's seller_id. */
  sellerId: string;
  /** PEM (PKCS#1 or PKCS#8) of the app's private key: signs requests. */
  appPrivateKey: string;
  /** PEM of Alipay's public key: verifies notifies, returns and responses. */
  alipayPublicKey: string;
  /** The gateway, e.g. https://openapi.alipay.com/gateway.do (tests: the peer's). */
  gateway: string;
}

export interface AlipayPageOrder {
  outTradeNo: string;
  /** Yuan with 2 decimals, e.g. "99.00". */
  totalAmount: string;
  subject: string;
  notifyUrl: string;
  returnUrl: string;
  /** e.g. "30m" (timeout_express). */
  timeoutExpress?: string;
}

export type AlipayTradeStatus = 'WAIT_BUYER_PAY' | 'TRADE_CLOSED' | 'TRADE_SUCCESS' | 'TRADE_FINISHED';

export type AlipayTrade =
  | { exists: false }
  | { exists: true; tradeNo: string; status: AlipayTradeStatus; totalAmount: string };

/** How long a call to Alipay may take before it counts as unreachable. */
export const ALIPAY_TIMEOUT_MS = 10_000;

const PROVIDER = 'Alipay';
const TRADE_STATUSES: readonly string[] = [
  'WAIT_BUYER_PAY',
  'TRADE_CLOSED',
  'TRADE_SUCCESS',
  'TRADE_FINISHED',
];

/**
 * Alipay Open Platform, computer-website payment (reference: payments-and-identity.md §1).
 *
 * Every request is signed with the app's private key over the sorted raw `name=value` join of all
 * its non-empty parameters except `sign` (§1.3); what comes back (a notify, a browser return, a
 * query response) is trusted only once it verifies with Alipay's public key. A query response is
 * verified over the exact text of its `…_response` object as it appears in the body (§1.4), never a
 * re-serialisation. Keys never appear in an error or a log line; a bad key in the settings is
 * PAYMENT_SETTINGS_INVALID when it is first needed.
 */
export class AlipayClient {
  private readonly settings: AlipaySettings;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private privateKey: KeyObject | null = null;
  private publicKey: KeyObject | null = null;

  constructor(settings: AlipaySettings, options: { timeoutMs?: number; now?: () => number } = {}) {
    this.settings = settings;
    this.timeoutMs = options.timeoutMs ?? ALIPAY_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
  }

  pagePayUrl(order: AlipayPageOrder): string {
    const biz: Record<string, string> = {
      out_trade_no: order.outTradeNo,
      product_code: 'FAST_INSTANT_TRADE_PAY',
      total_amount: order.totalAmount,
      subject: order.subject,
    };
    if (order.timeoutExpress) biz.timeout_express = order.timeoutExpress;
    const params = this.signedParams('alipay.trade.page.pay', biz, {
      notify_url: order.notifyUrl,
      return_url: order.returnUrl,
    });
    const query = Object.entries(params)
      .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
      .join('&');
    const gateway = this.settings.gateway;
    return `${gateway}${gateway.includes('?') ? '&' : '?'}${query}`;
  }

  verifyNotify(fields: Record<string, string>): boolean {
    try {
      const signature = fields.sign;
      if (typeof signature !== 'string' || !signature) return false;
      if (fields.app_id !== this.settings.appId) return false;
      const { sign: _sign, sign_type: _signType, ...rest } = fields;
      return verify(
        'sha256',
        Buffer.from(signContent(rest), 'utf8'),
        this.alipayKey(),
        Buffer.from(signature, 'base64'),
      );
    } catch {
      return false;
    }
  }

  async query(outTradeNo: string): Promise<AlipayTrade> {
    const method = 'alipay.trade.query';
    const params = this.signedParams(method, { out_trade_no: outTradeNo });
    let response: Response;
    let text: string;
    try {
      response = await fetch(this.settings.gateway, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8' },
        body: new URLSearchParams(params).toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch {
      throw new AppError('PAYMENT_PROVIDER_UNREACHABLE', { provider: PROVIDER });
    }
    if (!response.ok) throw providerError(`HTTP ${response.status}`);
    const answer = this.verifiedAnswer(text, method);
    const code = String(answer.code ?? '');
    if (code === '10000') {
      const { trade_no: tradeNo, trade_status: status, total_amount: totalAmount } = answer;
      if (
        typeof tradeNo !== 'string' ||
        typeof status !== 'string' ||
        !TRADE_STATUSES.includes(status) ||
        typeof totalAmount !== 'string' ||
        yuanToFen(totalAmount) === null
      ) {
        throw providerError('incomplete trade in the query answer');
      }
      if (answer.out_trade_no !== outTradeNo) throw providerError('the answer names another order');
      return { exists: true, tradeNo, status: status as AlipayTradeStatus, totalAmount };
    }
    if (code === '40004' && answer.sub_code === 'ACQ.TRADE_NOT_EXIST') return { exists: false };
    throw answerError(answer);
  }

  /** The `<method>_response` object, once its exact text verified; a gateway `error_response` throws. */
  private verifiedAnswer(text: string, method: string): Record<string, unknown> {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    if (!body || typeof body !== 'object') throw providerError('unreadable answer');
    const responseKey = `${method.replaceAll('.', '_')}_response`;
    const key = responseKey in body ? responseKey : 'error_response' in body ? 'error_response' : null;
    const raw = key ? rawMember(text, key) : null;
    if (!key || raw === null) throw providerError('unreadable answer');
    // A gateway refusal is an error whether signed or not (it leaves some, e.g. an unknown app_id,
    // unsigned), and nothing in it is trusted.
    if (key === 'error_response') throw answerError(parseObject(raw));
    const signature = (body as Record<string, unknown>).sign;
    if (typeof signature !== 'string' || !this.verifyRaw(raw, signature)) {
      throw providerError('the answer signature does not verify');
    }
    const answer = parseObject(raw);
    if (!answer) throw providerError('unreadable answer');
    return answer;
  }

  private verifyRaw(raw: string, signature: string): boolean {
    try {
      return verify('sha256', Buffer.from(raw, 'utf8'), this.alipayKey(), Buffer.from(signature, 'base64'));
    } catch {
      return false;
    }
  }

  private signedParams(
    method: string,
    biz: Record<string, string>,
    extra: Record<string, string> = {},
  ): Record<string, string> {
    const params: Record<string, string> = {
      app_id: this.settings.appId,
      method,
      format: 'JSON',
      charset: 'utf-8',
      sign_type: 'RSA2',
      timestamp: beijingTime(this.now()),
      version: '1.0',
      ...extra,
      biz_content: JSON.stringify(biz),
    };
    for (const [name, value] of Object.entries(params)) if (!value) delete params[name];
    params.sign = sign('sha256', Buffer.from(signContent(params), 'utf8'), this.appKey()).toString('base64');
    return params;
  }

  private appKey(): KeyObject {
    if (!this.privateKey) {
      try {
        this.privateKey = createPrivateKey(this.settings.appPrivateKey);
      } catch {
        throw new AppError('PAYMENT_SETTINGS_INVALID', {
          reason: 'the Alipay app private key is not a PEM key',
        });
      }
    }
    return this.privateKey;
  }

  private alipayKey(): KeyObject {
    if (!this.publicKey) {
      try {
        this.publicKey = createPublicKey(this.settings.alipayPublicKey);
      } catch {
        throw new AppError('PAYMENT_SETTINGS_INVALID', { reason: 'the Alipay public key is not a PEM key' });
      }
    }
    return this.publicKey;
  }
}

/** The sorted raw join Alipay signs: non-empty values, names in byte order, nothing URL-encoded. */
function signContent(params: Record<string, string | undefined>): string {
  return Object.entries(params)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/** `yyyy-MM-dd HH:mm:ss` in Beijing time (GMT+8), as the gateway expects whatever the server's zone. */
function beijingTime(ms: number): string {
  return beijingDateTime(ms);
}

/**
 * The exact text of the object value of the first member named `key` in a JSON body, from its `{`
 * to the matching `}`, honouring strings and escapes; null when there is none.
 */
function rawMember(text: string, key: string): string | null {
  const at = text.indexOf(JSON.stringify(key));
  if (at < 0) return null;
  let i = at + key.length + 2;
  while (/\s/.test(text[i] ?? '')) i++;
  if (text[i] !== ':') return null;
  i++;
  while (/\s/.test(text[i] ?? '')) i++;
  if (text[i] !== '{') return null;
  const start = i;
  let depth = 0;
  let inString = false;
  for (; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === '{' || char === '[') {
      depth++;
    } else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return null;
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** A gateway refusal as an error: its code, sub_code and message, never anything of ours. */
function answerError(answer: Record<string, unknown> | null): AppError {
  const parts = [answer?.code, answer?.sub_code, answer?.sub_msg ?? answer?.msg].filter(
    (part) => typeof part === 'string' && part,
  );
  return providerError(parts.join(' ').slice(0, 200) || 'unreadable answer');
}

function providerError(reason: string): AppError {
  return new AppError('PAYMENT_PROVIDER_ERROR', { provider: PROVIDER, reason });
}
