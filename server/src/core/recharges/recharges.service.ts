import { randomBytes } from 'node:crypto';
import {
  AppError,
  beijingClock,
  fenToYuan,
  isAppError,
  type Lang,
  type OfflineRechargeInput,
  offlineRechargeInputSchema,
  paypalChargeCents,
  RECHARGE_MAX_FEN,
  RECHARGE_MIN_FEN,
  RECHARGE_ORDER_TTL_MS,
  type RechargeChannel,
  type RechargeInput,
  type RechargeOptionsView,
  type RechargeOrdersPage,
  type RechargeOrdersQuery,
  type RechargeOrderView,
  type RechargeStartView,
  yuanToFen,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import type { Caller, UserCaller } from '../context.ts';
import { postEntry } from '../ledger/ledger.repo.ts';
import type { PaymentSettingsService } from './payment-settings.service.ts';
import type { PaypalOrder } from './paypal-client.ts';
import * as repo from './recharges.repo.ts';

export interface RechargesDeps {
  database: Database;
  settings: PaymentSettingsService;
  /** Herald's public base URL: the providers call back here and send the buyer back here. */
  publicUrl: string;
  logger: Logger;
  /** Told when an account's balance or plan changed (the send paths' caches). */
  onFunded: (accountId: number) => void;
  now?: () => number;
}

/** Where the buyer's browser comes back to: the console's result screen. */
export const RECHARGE_RESULT_PATH = '/accountSetting/financialMangement/charge/result';
/** The public callbacks (http/public/payments.routes.ts). */
export const ALIPAY_NOTIFY_PATH = '/payments/alipay/notify';
export const PAYPAL_WEBHOOK_PATH = '/payments/paypal/webhook';
/** A pending order is first asked about this long after it was made, then at most this often. */
const CHECK_AFTER_MS = 60_000;

/**
 * Recharges (issue 18; reference payments-and-identity §1, §2, §6.2). A customer orders an amount
 * and pays it at Alipay (computer-website payment) or PayPal (Orders v2); an operator records an
 * offline bank transfer. Every way an order can become paid (Alipay's notify, PayPal's webhook,
 * the buyer's return, the reconciliation loop asking the provider) ends in `credit`: the order
 * flips to paid and its ledger entry is posted in one transaction, keyed
 * `recharge:<channel>:<proof>`, so an order is credited once however many of them arrive. The
 * first recharge makes a free account paid.
 *
 * A callback is believed only after its signature (Alipay's public key; PayPal's verification
 * call) and then only for an order Herald made, with its amount, merchant and app: anything else
 * is refused and changes nothing. PayPal orders are in the operator's currency at their rate;
 * the customer is credited the yuan they ordered.
 */
export class RechargesService {
  private readonly database: Database;
  private readonly deps: RechargesDeps;
  private readonly now: () => number;

  constructor(deps: RechargesDeps) {
    this.deps = deps;
    this.database = deps.database;
    this.now = deps.now ?? Date.now;
  }

  async options({ accountId }: Caller): Promise<RechargeOptionsView> {
    const [alipay, paypal, plan] = await Promise.all([
      this.deps.settings.alipay(),
      this.deps.settings.paypal(),
      repo.accountPlan(this.database, accountId),
    ]);
    return {
      methods: [...(alipay ? (['alipay'] as const) : []), ...(paypal ? (['paypal'] as const) : [])],
      minFen: RECHARGE_MIN_FEN,
      maxFen: RECHARGE_MAX_FEN,
      paypal: paypal ? { currency: paypal.settings.currency, rateFen: paypal.settings.rateFen } : null,
      free: plan !== 'paid',
    };
  }

  /** Makes an order and answers where the buyer's browser goes to pay it. */
  async start(caller: UserCaller, input: RechargeInput, lang: Lang): Promise<RechargeStartView> {
    const amountFen = yuanToFen(input.amount);
    if (amountFen === null || amountFen < RECHARGE_MIN_FEN || amountFen > RECHARGE_MAX_FEN) {
      throw new AppError('RECHARGE_AMOUNT_INVALID', {
        min: fenToYuan(RECHARGE_MIN_FEN),
        max: fenToYuan(RECHARGE_MAX_FEN),
      });
    }
    return input.method === 'alipay'
      ? this.startAlipay(caller, amountFen)
      : this.startPaypal(caller, amountFen, lang);
  }

  private async startAlipay(caller: UserCaller, amountFen: number): Promise<RechargeStartView> {
    const alipay = await this.deps.settings.alipay();
    if (!alipay) throw new AppError('RECHARGE_METHOD_UNAVAILABLE', { method: 'Alipay' });
    const order = await this.newOrder(caller, 'alipay', amountFen, 'CNY', fenToYuan(amountFen));
    const payUrl = alipay.client.pagePayUrl({
      outTradeNo: order.outTradeNo,
      totalAmount: fenToYuan(amountFen),
      subject: `Herald recharge ${fenToYuan(amountFen)} CNY`,
      notifyUrl: `${this.deps.publicUrl}${ALIPAY_NOTIFY_PATH}`,
      returnUrl: this.resultUrl(order.outTradeNo),
      timeoutExpress: `${RECHARGE_ORDER_TTL_MS / 60_000}m`,
    });
    return { orderNo: order.outTradeNo, payUrl };
  }

  private async startPaypal(caller: UserCaller, amountFen: number, lang: Lang): Promise<RechargeStartView> {
    const paypal = await this.deps.settings.paypal();
    if (!paypal) throw new AppError('RECHARGE_METHOD_UNAVAILABLE', { method: 'PayPal' });
    const { currency, rateFen } = paypal.settings;
    const value = fenToYuan(paypalChargeCents(amountFen, rateFen));
    const order = await this.newOrder(caller, 'paypal', amountFen, currency, value);
    const created = await paypal.client.createOrder({
      requestId: order.outTradeNo,
      customId: order.outTradeNo,
      currency,
      value,
      description: `Herald recharge ${fenToYuan(amountFen)} CNY`,
      returnUrl: this.resultUrl(order.outTradeNo),
      cancelUrl: `${this.resultUrl(order.outTradeNo)}&cancelled=1`,
      locale: lang === 'en' ? 'en-US' : 'zh-CN',
    });
    await repo.setProviderOrder(this.database, order.id, created.id);
    return { orderNo: order.outTradeNo, payUrl: created.approveUrl };
  }

  private async newOrder(
    caller: UserCaller,
    channel: 'alipay' | 'paypal',
    amountFen: number,
    currency: string,
    providerAmount: string,
  ): Promise<{ id: number; outTradeNo: string }> {
    const now = this.now();
    const outTradeNo = orderNumber(now);
    const id = await repo.insertOrder(this.database.db, {
      out_trade_no: outTradeNo,
      account_id: caller.accountId,
      user_id: caller.userId,
      type: 'online',
      channel,
      amount_fen: amountFen,
      provider_currency: currency,
      provider_amount: providerAmount,
      provider_order_id: null,
      provider_txn_id: null,
      status: 'pending',
      failure: null,
      remitter: null,
      note: null,
      created_by: null,
      created_at: now,
      expires_at: now + RECHARGE_ORDER_TTL_MS,
    });
    return { id, outTradeNo };
  }

  private resultUrl(orderNo: string): string {
    return `${this.deps.publicUrl}${RECHARGE_RESULT_PATH}?orderNo=${encodeURIComponent(orderNo)}`;
  }

  async list({ accountId }: Caller, query: RechargeOrdersQuery): Promise<RechargeOrdersPage> {
    const { rows, total } = await repo.listOrders(this.database, accountId, {
      status: query.status,
      offset: (query.pageNum - 1) * query.pageSize,
      limit: query.pageSize,
    });
    return { list: rows.map(orderView), total };
  }

  /** The account's order; another account's is not found. */
  async get({ accountId }: Caller, orderNo: string): Promise<RechargeOrderView> {
    return orderView(await this.owned(accountId, orderNo));
  }

  /**
   * The result screen's question, "has it been paid?": a pending order is asked about at its
   * provider at once (the buyer is back from paying, and the notify may not have come yet).
   */
  async check({ accountId }: Caller, orderNo: string): Promise<RechargeOrderView> {
    const order = await this.owned(accountId, orderNo);
    if (order.status === 'pending') await this.reconcile(order);
    return orderView(await this.owned(accountId, orderNo));
  }

  private async owned(accountId: number, orderNo: string): Promise<repo.OrderRow> {
    const order = orderNo.length <= 64 ? await repo.findByNo(this.database.db, orderNo) : undefined;
    if (!order || Number(order.account_id) !== accountId) throw new AppError('RECHARGE_ORDER_NOT_FOUND');
    return order;
  }

  /**
   * Alipay's asynchronous notify (reference §1.6): answers `success` once the notify is handled
   * (committed) or needs nothing, and `failure` for one that does not verify or does not match an
   * order of ours (Alipay then retries; a forger gets nothing).
   */
  async alipayNotify(fields: Record<string, string>): Promise<'success' | 'failure'> {
    const alipay = await this.deps.settings.alipay({ evenDisabled: true });
    if (!alipay?.client.verifyNotify(fields)) {
      this.deps.logger.warn(
        { outTradeNo: fields.out_trade_no?.slice(0, 64) },
        'an Alipay notify did not verify',
      );
      return 'failure';
    }
    const order = await repo.findByNo(this.database.db, fields.out_trade_no ?? '');
    const matches =
      order !== undefined &&
      order.channel === 'alipay' &&
      yuanToFen(fields.total_amount ?? '') === Number(order.amount_fen) &&
      fields.seller_id === alipay.settings.sellerId;
    if (!order || !matches) {
      this.deps.logger.warn(
        { outTradeNo: fields.out_trade_no?.slice(0, 64) },
        'an Alipay notify matches no order',
      );
      return 'failure';
    }
    const status = fields.trade_status;
    if ((status === 'TRADE_SUCCESS' || status === 'TRADE_FINISHED') && fields.trade_no) {
      await this.credit(order, fields.trade_no);
    } else if (status === 'TRADE_CLOSED') {
      await repo.markEnded(this.database, Number(order.id), 'closed', 'TRADE_CLOSED', this.now());
    }
    return 'success';
  }

  /**
   * A PayPal webhook delivery (reference §2.5): verified by PayPal's verification call, then the
   * order is looked up at PayPal again before anything changes (the event is only a hint).
   * Answers the HTTP status: 200 once handled, 400 for one that does not verify.
   */
  async paypalWebhook(
    headers: Record<string, string | string[] | undefined>,
    rawBody: string,
  ): Promise<number> {
    const paypal = await this.deps.settings.paypal({ evenDisabled: true });
    if (!paypal || !(await paypal.client.verifyWebhook(headers, rawBody))) {
      this.deps.logger.warn('a PayPal webhook did not verify');
      return 400;
    }
    const event = JSON.parse(rawBody) as {
      event_type?: string;
      resource?: { id?: string; supplementary_data?: { related_ids?: { order_id?: string } } };
    };
    const orderId =
      event.event_type?.startsWith('PAYMENT.CAPTURE.') === true
        ? event.resource?.supplementary_data?.related_ids?.order_id
        : event.resource?.id;
    const order = orderId ? await repo.findByProviderOrder(this.database, 'paypal', orderId) : undefined;
    if (order?.status === 'pending') await this.reconcile(order);
    return 200;
  }

  /**
   * Asks the provider about one pending order and acts on the answer: credits a paid one,
   * captures an approved PayPal order, ends a declined or voided one, and closes one that is
   * past its time and unpaid. A provider that cannot be reached leaves it pending for next time.
   */
  private async reconcile(order: repo.OrderRow): Promise<void> {
    const now = this.now();
    await repo.markChecked(this.database, Number(order.id), now);
    const expired = now > Number(order.expires_at);
    if (order.channel === 'alipay') {
      const alipay = await this.deps.settings.alipay({ evenDisabled: true });
      if (!alipay) return;
      const trade = await alipay.client.query(order.out_trade_no);
      if (
        trade.exists &&
        (trade.status === 'TRADE_SUCCESS' || trade.status === 'TRADE_FINISHED') &&
        yuanToFen(trade.totalAmount) === Number(order.amount_fen)
      ) {
        await this.credit(order, trade.tradeNo);
      } else if ((trade.exists && trade.status === 'TRADE_CLOSED') || (expired && !trade.exists)) {
        await repo.markEnded(
          this.database,
          Number(order.id),
          'closed',
          trade.exists ? 'TRADE_CLOSED' : null,
          now,
        );
      }
      return;
    }
    const paypal = await this.deps.settings.paypal({ evenDisabled: true });
    if (!paypal || !order.provider_order_id) {
      if (expired) await repo.markEnded(this.database, Number(order.id), 'closed', null, now);
      return;
    }
    let found = await paypal.client.getOrder(order.provider_order_id);
    if (found?.status === 'APPROVED')
      found = await paypal.client.capture(found.id, `${order.out_trade_no}-capture`);
    await this.settlePaypal(order, found, expired);
  }

  private async settlePaypal(
    order: repo.OrderRow,
    found: PaypalOrder | null,
    expired: boolean,
  ): Promise<void> {
    const now = this.now();
    const capture = found?.capture ?? null;
    if (
      capture?.status === 'COMPLETED' &&
      capture.customId === order.out_trade_no &&
      capture.currency === order.provider_currency &&
      yuanToFen(capture.value) === yuanToFen(order.provider_amount)
    ) {
      await this.credit(order, capture.id);
    } else if (capture && (capture.status === 'DECLINED' || capture.status === 'FAILED')) {
      await repo.markEnded(this.database, Number(order.id), 'failed', `CAPTURE_${capture.status}`, now);
    } else if (found?.status === 'VOIDED' || (expired && (!found || found.status === 'CREATED'))) {
      await repo.markEnded(this.database, Number(order.id), 'closed', found?.status ?? null, now);
    }
  }

  /**
   * The reconciliation loop's turn: pending online orders a minute old, each asked about at most
   * once a minute (notifies that never came, buyers who closed the page after paying, orders
   * past their time). Answers how many were asked about.
   */
  async reconcileDue(limit = 50): Promise<number> {
    const now = this.now();
    const due = await repo.dueForCheck(this.database, now - CHECK_AFTER_MS, now - CHECK_AFTER_MS, limit);
    for (const order of due) {
      try {
        await this.reconcile(order);
      } catch (error) {
        if (!isAppError(error)) throw error;
        this.deps.logger.warn(
          { orderNo: order.out_trade_no, code: error.code },
          'a recharge could not be checked',
        );
      }
    }
    return due.length;
  }

  /**
   * An operator's record of a bank transfer that arrived: a paid order and its credit at once,
   * once per bank reference (the same reference again changes nothing and answers that order).
   */
  async recordOffline(
    operator: UserCaller | null,
    accountId: number,
    input: OfflineRechargeInput | unknown,
  ): Promise<RechargeOrderView> {
    const parsed = offlineRechargeInputSchema.safeParse(input);
    if (!parsed.success) throw new AppError('RECHARGE_OFFLINE_INVALID');
    const { amount, remitter, bankRef, note } = parsed.data;
    const amountFen = yuanToFen(amount) as number;
    const outTradeNo = `OFF${bankRef.replace(/[^A-Za-z0-9_]/g, '_')}`.slice(0, 64);
    const now = this.now();
    try {
      await repo.insertOrder(this.database.db, {
        out_trade_no: outTradeNo,
        account_id: accountId,
        user_id: null,
        type: 'offline',
        channel: 'offline',
        amount_fen: amountFen,
        provider_currency: 'CNY',
        provider_amount: fenToYuan(amountFen),
        provider_order_id: null,
        provider_txn_id: null,
        status: 'pending',
        failure: null,
        remitter,
        note: note ?? null,
        created_by: operator?.userId ?? null,
        created_at: now,
        expires_at: now,
      });
    } catch (error) {
      // The reference was recorded before (or just now by another operator): that record stands.
      const earlier = await repo.findByNo(this.database.db, outTradeNo);
      if (!earlier) throw error;
      if (Number(earlier.account_id) !== accountId || Number(earlier.amount_fen) !== amountFen) {
        throw new AppError('LEDGER_KEY_CONFLICT', { key: `recharge:offline:${bankRef}` });
      }
    }
    const order = (await repo.findByNo(this.database.db, outTradeNo)) as repo.OrderRow;
    if (order.status === 'pending') await this.credit(order, bankRef);
    return orderView((await repo.findByNo(this.database.db, outTradeNo)) as repo.OrderRow);
  }

  /**
   * Credits a paid order once: the order flips to paid, its ledger entry is posted, and a free
   * account becomes paid, in one transaction. A second call (another notify, the webhook after
   * the return) finds the order paid and changes nothing.
   */
  private async credit(order: repo.OrderRow, proof: string): Promise<void> {
    const accountId = Number(order.account_id);
    const amountFen = Number(order.amount_fen);
    const credited = await this.database.db.transaction().execute(async (trx) => {
      const at = this.now();
      if (!(await repo.markPaid(trx, Number(order.id), proof, at))) return false;
      await postEntry(trx, {
        accountId,
        kind: 'recharge',
        amountFen,
        reason: rechargeReason(order.channel),
        detail: JSON.stringify({ orderNo: order.out_trade_no, channel: order.channel, proof }),
        idempotencyKey: `recharge:${order.channel}:${proof}`,
        createdBy: order.created_by,
        at,
      });
      await repo.makePaid(trx, accountId, at);
      return true;
    });
    if (credited) {
      this.deps.logger.info({ orderNo: order.out_trade_no, accountId, amountFen }, 'a recharge was credited');
      this.deps.onFunded(accountId);
    }
  }
}

function rechargeReason(channel: RechargeChannel): string {
  if (channel === 'alipay') return 'Alipay recharge';
  if (channel === 'paypal') return 'PayPal recharge';
  return 'Bank transfer';
}

/** HR, the Beijing date and time, and 8 random digits: unique, ≤ 64 letters and digits (Alipay's rule). */
function orderNumber(now: number): string {
  const beijing = beijingClock(now).toISOString().replace(/\D/g, '').slice(0, 14);
  const random = String(randomBytes(4).readUInt32BE(0) % 100_000_000).padStart(8, '0');
  return `HR${beijing}${random}`;
}

function orderView(row: repo.OrderRow): RechargeOrderView {
  return {
    orderNo: row.out_trade_no,
    type: row.type,
    channel: row.channel,
    amountFen: Number(row.amount_fen),
    providerCurrency: row.provider_currency,
    providerAmount: row.provider_amount,
    status: row.status,
    providerTxnId: row.provider_txn_id,
    failure: row.failure,
    createdAt: Number(row.created_at),
    paidAt: row.paid_at === null ? null : Number(row.paid_at),
  };
}
