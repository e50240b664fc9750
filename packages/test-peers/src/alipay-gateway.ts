/**
 * A loopback Alipay Open Platform gateway for computer-website payment (payments-and-identity.md
 * §1.8): `alipay.trade.page.pay` renders a tiny test cashier, its Pay button (or `pay()`) marks the
 * trade paid, POSTs a signed V1 notify to notify_url and sends the browser to a signed return_url,
 * and `alipay.trade.query` answers a signed `alipay_trade_query_response`. Requests are checked
 * against the app public key the test hands in; the peer's own ("Alipay's") key pair is made at
 * start. Signing is written here from the protocol text, independently of Herald's client, so the
 * two check each other.
 */
import { generateKeyPairSync, type KeyObject, randomInt, sign, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml, readBody, sendHtml } from './http-helpers.ts';

export interface AlipayPeerOptions {
  appId?: string;
  sellerId?: string;
  /** PEM of the app public key the peer checks request signatures with. */
  appPublicKey: string;
  /**
   * Delays before each automatic resend of a notify not answered `success` (Alipay: 4m, 10m, 10m,
   * 1h, 2h, 6h, 15h; scale down in tests). Default: none, tests resend with `notify()`.
   */
  retryDelaysMs?: number[];
}

export type AlipayPeerTradeStatus = 'WAIT_BUYER_PAY' | 'TRADE_CLOSED' | 'TRADE_SUCCESS' | 'TRADE_FINISHED';

export interface AlipayPeerTrade {
  outTradeNo: string;
  tradeNo: string;
  status: AlipayPeerTradeStatus;
  totalAmount: string;
  subject: string;
  notifyUrl: string;
  returnUrl: string;
}

export interface AlipayNotification {
  url: string;
  fields: Record<string, string>;
  /** Herald's HTTP status, 0 when it could not be reached. */
  status: number;
  reply: string;
}

export interface AlipayPeer {
  /** The gateway URL, http://127.0.0.1:<port>/gateway.do */
  gateway: string;
  appId: string;
  sellerId: string;
  /** PEM of the peer's ("Alipay's") public key, for Herald's settings. */
  alipayPublicKey: string;
  trades: Map<string, AlipayPeerTrade>;
  /** Every notify the peer POSTed, with Herald's reply. */
  notifications: AlipayNotification[];
  /** Requests refused for a bad signature (method, reason). */
  refused: { method: string; reason: string }[];
  /** The buyer pays (as the cashier's Pay button does): TRADE_SUCCESS, then a notify unless notify === false. Resolves after the notify was answered. */
  pay(outTradeNo: string, options?: { notify?: boolean }): Promise<void>;
  /** Sends the trade's notify again (as Alipay retries); answers Herald's reply text. `overrides` replace fields AFTER signing (to forge) or, with `resign: true`, before signing. */
  notify(
    outTradeNo: string,
    overrides?: Record<string, string>,
    options?: { resign?: boolean },
  ): Promise<string>;
  /** A notify signed with a key that is not Alipay's (a forgery); answers the reply. */
  forgedNotify(outTradeNo: string): Promise<string>;
  close(): Promise<void>;
}

interface Answer {
  key: string;
  answer: Record<string, string>;
}

interface TradeTimes {
  created: string;
  paid: string | null;
  notifyId: string;
}

const AMOUNT = /^(0|[1-9]\d{0,8})\.\d{2}$/;
const NOTIFY_TIMEOUT_MS = 5_000;

export async function startAlipayPeer(options: AlipayPeerOptions): Promise<AlipayPeer> {
  const appId = options.appId ?? '2021000000000001';
  const sellerId = options.sellerId ?? '2088000000000001';
  const appKey = options.appPublicKey;
  const own = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let forger: KeyObject | null = null;
  const trades = new Map<string, AlipayPeerTrade>();
  const times = new Map<string, TradeTimes>();
  const notifications: AlipayNotification[] = [];
  const refused: { method: string; reason: string }[] = [];
  const retryDelays = options.retryDelaysMs ?? [];
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const signWith = (key: KeyObject, content: string) =>
    sign('sha256', Buffer.from(content, 'utf8'), key).toString('base64');

  /** The request check (§1.3): everything but `sign`, `sign_type` kept. */
  const requestSignatureProblem = (params: Record<string, string>): string | null => {
    if (!params.sign) return 'missing sign';
    if (params.sign_type !== 'RSA2') return `unsupported sign_type ${params.sign_type ?? ''}`;
    const { sign: signature, ...rest } = params;
    try {
      const ok = verify(
        'sha256',
        Buffer.from(signContent(rest), 'utf8'),
        appKey,
        Buffer.from(signature, 'base64'),
      );
      return ok ? null : 'signature does not verify with the app public key';
    } catch {
      return 'signature does not verify with the app public key';
    }
  };

  /** V1 signing of a notify or a return: neither `sign` nor `sign_type` is signed. */
  const signV1 = (
    fields: Record<string, string>,
    key: KeyObject = own.privateKey,
  ): Record<string, string> => {
    const { sign: _sign, sign_type: _signType, ...rest } = fields;
    return { ...fields, sign: signWith(key, signContent(rest)) };
  };

  const tradeOf = (outTradeNo: string): { trade: AlipayPeerTrade; at: TradeTimes } => {
    const trade = trades.get(outTradeNo);
    const at = times.get(outTradeNo);
    if (!trade || !at) throw new Error(`alipay peer: no trade ${outTradeNo}`);
    return { trade, at };
  };

  const notifyFields = (outTradeNo: string): Record<string, string> => {
    const { trade, at } = tradeOf(outTradeNo);
    const fields: Record<string, string> = {
      notify_time: beijingTime(Date.now()),
      notify_type: 'trade_status_sync',
      notify_id: at.notifyId,
      app_id: appId,
      auth_app_id: appId,
      charset: 'utf-8',
      version: '1.0',
      sign_type: 'RSA2',
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      buyer_id: '2088102177846880',
      buyer_logon_id: 'buy***@alipay.test',
      seller_id: sellerId,
      trade_status: trade.status,
      total_amount: trade.totalAmount,
      receipt_amount: trade.totalAmount,
      buyer_pay_amount: trade.totalAmount,
      invoice_amount: trade.totalAmount,
      subject: trade.subject,
      gmt_create: at.created,
      fund_bill_list: JSON.stringify([{ amount: trade.totalAmount, fundChannel: 'ALIPAYACCOUNT' }]),
    };
    if (at.paid) fields.gmt_payment = at.paid;
    return fields;
  };

  const post = async (url: string, fields: Record<string, string>): Promise<string> => {
    let status = 0;
    let reply = '';
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body: new URLSearchParams(fields).toString(),
        redirect: 'manual',
        signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS),
      });
      status = response.status;
      reply = await response.text();
    } catch {
      // Herald unreachable: recorded with status 0, resent like any other failure.
    }
    notifications.push({ url, fields, status, reply });
    return reply;
  };

  /** Resends on the retry schedule until Herald answers exactly `success`. */
  const scheduleRetry = (outTradeNo: string, attempt: number): void => {
    const delay = retryDelays[attempt];
    if (delay === undefined || closed) return;
    const timer = setTimeout(async () => {
      timers.delete(timer);
      if (closed) return;
      const trade = trades.get(outTradeNo);
      if (!trade) return;
      const reply = await post(trade.notifyUrl, signV1(notifyFields(outTradeNo)));
      if (reply !== 'success') scheduleRetry(outTradeNo, attempt + 1);
    }, delay);
    timers.add(timer);
  };

  const sendNotify = async (
    outTradeNo: string,
    overrides: Record<string, string> = {},
    signOptions: { resign?: boolean; key?: KeyObject } = {},
  ): Promise<string> => {
    const { trade } = tradeOf(outTradeNo);
    const fields = signOptions.resign
      ? signV1({ ...notifyFields(outTradeNo), ...overrides }, signOptions.key)
      : { ...signV1(notifyFields(outTradeNo), signOptions.key), ...overrides };
    return post(trade.notifyUrl, fields);
  };

  const markPaid = async (outTradeNo: string, withNotify: boolean): Promise<void> => {
    const { trade, at } = tradeOf(outTradeNo);
    if (trade.status === 'WAIT_BUYER_PAY') {
      trade.status = 'TRADE_SUCCESS';
      at.paid = beijingTime(Date.now());
    }
    if (!withNotify) return;
    const reply = await sendNotify(outTradeNo);
    if (reply !== 'success') scheduleRetry(outTradeNo, 0);
  };

  const returnUrl = (trade: AlipayPeerTrade): string => {
    const fields = signV1({
      charset: 'utf-8',
      out_trade_no: trade.outTradeNo,
      method: 'alipay.trade.page.pay.return',
      total_amount: trade.totalAmount,
      sign_type: 'RSA2',
      trade_no: trade.tradeNo,
      auth_app_id: appId,
      app_id: appId,
      seller_id: sellerId,
      version: '1.0',
      timestamp: beijingTime(Date.now()),
    });
    const query = new URLSearchParams(fields).toString();
    return `${trade.returnUrl}${trade.returnUrl.includes('?') ? '&' : '?'}${query}`;
  };

  /** Signed JSON answer (§1.4): the signature covers the exact text of the response object. */
  const signedAnswer = (res: ServerResponse, key: string, answer: Record<string, string>): void => {
    const raw = JSON.stringify(answer);
    const body = `{${JSON.stringify(key)}:${raw},"sign":${JSON.stringify(signWith(own.privateKey, raw))}}`;
    res.writeHead(200, { 'content-type': 'application/json;charset=utf-8' });
    res.end(body);
  };

  const pagePay = (params: Record<string, string>): string => {
    const problem = requestSignatureProblem(params);
    if (problem) {
      refused.push({ method: 'alipay.trade.page.pay', reason: problem });
      return errorPage('isv.invalid-signature', problem);
    }
    if (params.app_id !== appId) return errorPage('isv.invalid-app-id', 'unknown app_id');
    let biz: Record<string, unknown>;
    try {
      biz = JSON.parse(params.biz_content ?? '');
    } catch {
      return errorPage('isv.invalid-biz-content', 'biz_content is not JSON');
    }
    const outTradeNo = biz.out_trade_no;
    const totalAmount = biz.total_amount;
    const subject = biz.subject;
    if (biz.product_code !== 'FAST_INSTANT_TRADE_PAY') {
      return errorPage('isv.invalid-product-code', 'product_code must be FAST_INSTANT_TRADE_PAY');
    }
    if (typeof outTradeNo !== 'string' || !/^\w{1,64}$/.test(outTradeNo)) {
      return errorPage('isv.invalid-out-trade-no', 'out_trade_no is missing or malformed');
    }
    if (typeof totalAmount !== 'string' || !AMOUNT.test(totalAmount) || !amountInRange(totalAmount)) {
      return errorPage('isv.invalid-total-amount', 'total_amount must be 0.01 to 100000000.00');
    }
    if (typeof subject !== 'string' || !subject) {
      return errorPage('isv.missing-subject', 'subject is required');
    }
    const existing = trades.get(outTradeNo);
    if (existing && existing.totalAmount !== totalAmount) {
      return errorPage('ACQ.CONTEXT_INCONSISTENT', 'the order was placed with another amount');
    }
    if (existing && existing.status !== 'WAIT_BUYER_PAY') {
      return errorPage('ACQ.TRADE_HAS_SUCCESS', 'the trade is already paid or closed');
    }
    const trade: AlipayPeerTrade = existing ?? {
      outTradeNo,
      tradeNo: tradeNumber(),
      status: 'WAIT_BUYER_PAY',
      totalAmount,
      subject,
      notifyUrl: params.notify_url ?? '',
      returnUrl: params.return_url ?? '',
    };
    if (!existing) {
      trades.set(outTradeNo, trade);
      times.set(outTradeNo, { created: beijingTime(Date.now()), paid: null, notifyId: notifyId() });
    }
    return cashierPage(trade);
  };

  const tradeQuery = (params: Record<string, string>): Answer => {
    const problem = requestSignatureProblem(params);
    if (problem) {
      refused.push({ method: 'alipay.trade.query', reason: problem });
      return answerOf('error_response', {
        code: '40002',
        msg: 'Invalid Arguments',
        sub_code: 'isv.invalid-signature',
        sub_msg: '验签出错',
      });
    }
    const key = 'alipay_trade_query_response';
    if (params.app_id !== appId) {
      return answerOf('error_response', {
        code: '40002',
        msg: 'Invalid Arguments',
        sub_code: 'isv.invalid-app-id',
        sub_msg: '无效的AppID参数',
      });
    }
    let biz: Record<string, unknown> = {};
    try {
      biz = JSON.parse(params.biz_content ?? '');
    } catch {
      // Treated as naming no trade.
    }
    const trade =
      typeof biz.trade_no === 'string' && biz.trade_no
        ? [...trades.values()].find((candidate) => candidate.tradeNo === biz.trade_no)
        : typeof biz.out_trade_no === 'string'
          ? trades.get(biz.out_trade_no)
          : undefined;
    if (!trade) {
      return answerOf(key, {
        code: '40004',
        msg: 'Business Failed',
        sub_code: 'ACQ.TRADE_NOT_EXIST',
        sub_msg: '交易不存在',
        buyer_pay_amount: '0.00',
        invoice_amount: '0.00',
        out_trade_no: typeof biz.out_trade_no === 'string' ? biz.out_trade_no : '',
        point_amount: '0.00',
        receipt_amount: '0.00',
      });
    }
    const at = tradeOf(trade.outTradeNo).at;
    const paid = at.paid !== null;
    const answer: Record<string, string> = {
      code: '10000',
      msg: 'Success',
      buyer_logon_id: 'buy***@alipay.test',
      buyer_pay_amount: paid ? trade.totalAmount : '0.00',
      buyer_user_id: '2088102177846880',
      invoice_amount: paid ? trade.totalAmount : '0.00',
      out_trade_no: trade.outTradeNo,
      point_amount: '0.00',
      receipt_amount: paid ? trade.totalAmount : '0.00',
      total_amount: trade.totalAmount,
      trade_no: trade.tradeNo,
      trade_status: trade.status,
    };
    if (at.paid) answer.send_pay_date = at.paid;
    return answerOf(key, answer);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const params: Record<string, string> = Object.fromEntries(url.searchParams);
    if (req.method === 'POST')
      Object.assign(params, Object.fromEntries(new URLSearchParams(await readBody(req))));
    if (url.pathname === '/gateway.do' && (req.method === 'GET' || req.method === 'POST')) {
      if (params.method === 'alipay.trade.page.pay') return sendHtml(res, pagePay(params));
      const { key, answer } =
        params.method === 'alipay.trade.query'
          ? tradeQuery(params)
          : answerOf('error_response', {
              code: '40002',
              msg: 'Invalid Arguments',
              sub_code: 'isv.invalid-method',
              sub_msg: '不存在的方法名',
            });
      return signedAnswer(res, key, answer);
    }
    if (url.pathname === '/cashier/pay' && req.method === 'POST') {
      const trade = trades.get(params.out_trade_no ?? '');
      if (!trade) return sendHtml(res, errorPage('ACQ.TRADE_NOT_EXIST', 'no such trade'), 404);
      await markPaid(trade.outTradeNo, true);
      res.writeHead(302, { location: returnUrl(trade) });
      res.end();
      return;
    }
    sendHtml(res, errorPage('not-found', 'no such page'), 404);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendHtml(res, errorPage('peer-error', String(error)), 500);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    gateway: `http://127.0.0.1:${port}/gateway.do`,
    appId,
    sellerId,
    alipayPublicKey: own.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    trades,
    notifications,
    refused,
    pay: (outTradeNo, payOptions = {}) => markPaid(outTradeNo, payOptions.notify !== false),
    notify: (outTradeNo, overrides = {}, notifyOptions = {}) =>
      sendNotify(outTradeNo, overrides, { resign: notifyOptions.resign === true }),
    forgedNotify: (outTradeNo) => {
      forger ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      return sendNotify(outTradeNo, {}, { key: forger });
    },
    close: async () => {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answerOf(key: string, answer: Record<string, string>): Answer {
  return { key, answer };
}

function signContent(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((name) => params[name] !== undefined && params[name] !== '')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => `${name}=${params[name]}`)
    .join('&');
}

function amountInRange(amount: string): boolean {
  const [whole = '', fraction = ''] = amount.split('.');
  const fen = Number(whole) * 100 + Number(fraction);
  return fen >= 1 && fen <= 10_000_000_000;
}

function beijingTime(ms: number): string {
  const iso = new Date(ms + 8 * 3600_000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** 28 digits like Alipay's: the date, then 20 digits. */
function tradeNumber(): string {
  const date = beijingTime(Date.now()).slice(0, 10).replaceAll('-', '');
  let digits = '2200';
  while (digits.length < 20) digits += String(randomInt(10));
  return date + digits;
}

function notifyId(): string {
  let id = '';
  while (id.length < 34) id += randomInt(36).toString(36);
  return id;
}

function errorPage(subCode: string, message: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Alipay test gateway: error</title></head><body><h1>错误代码 ${escapeHtml(subCode)}</h1><p>${escapeHtml(message)}</p></body></html>`;
}

function cashierPage(trade: AlipayPeerTrade): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Alipay test cashier</title></head><body>
<h1>${escapeHtml(trade.subject)}</h1>
<p class="amount">¥${escapeHtml(trade.totalAmount)}</p>
<form method="post" action="/cashier/pay">
<input type="hidden" name="out_trade_no" value="${escapeHtml(trade.outTradeNo)}">
<button type="submit">Pay</button>
</form>
</body></html>`;
}
