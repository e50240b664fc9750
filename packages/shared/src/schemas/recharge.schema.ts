import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';

/**
 * Recharges (issue 18; product-spec §3 "recharge types", §6, §9; console
 * `/accountSetting/financialMangement/charge`, calls `/alipay/pay`, `/paypal/pay`, `/user/orders`).
 * A customer orders an amount in yuan and pays it through Alipay or PayPal; an operator records an
 * offline bank transfer. The first recharge makes a free account paid (its minimum is 9.9 yuan).
 */
const rule = (key: ValidationKey) => ({ message: key });

/** product-spec §9 "Minimum top-up 9.9 yuan". */
export const RECHARGE_MIN_FEN = 990;
/** One online order at most (Alipay's own ceiling is far above: 100,000,000 yuan). */
export const RECHARGE_MAX_FEN = 100_000_000;
/** How long an online order waits for its payment before it is closed. */
export const RECHARGE_ORDER_TTL_MS = 30 * 60_000;

export const RECHARGE_METHODS = ['alipay', 'paypal'] as const;
export type RechargeMethod = (typeof RECHARGE_METHODS)[number];
export const RECHARGE_CHANNELS = ['alipay', 'paypal', 'offline'] as const;
export type RechargeChannel = (typeof RECHARGE_CHANNELS)[number];
/** product-spec §3 "Recharge types"; Herald makes online and offline ones so far. */
export const RECHARGE_TYPES = [
  'online',
  'offline',
  'voucher',
  'cloud_marketplace',
  'sub_account',
  'virtual',
] as const;
export type RechargeType = (typeof RECHARGE_TYPES)[number];
/** pending (waiting for the payment) → paid, or closed (never paid), or failed (the payment was declined). */
export const RECHARGE_STATUSES = ['pending', 'paid', 'closed', 'failed'] as const;
export type RechargeStatus = (typeof RECHARGE_STATUSES)[number];

/**
 * "12.3" → 1230 fen without floats: a plain non-negative amount with at most 2 decimals and no
 * leading zeros, signs, exponents or spaces (a provider's "99.00", a form's trimmed input);
 * anything else is null.
 */
export function yuanToFen(yuan: string): number | null {
  const match = /^(0|[1-9]\d{0,12})(?:\.(\d{1,2}))?$/.exec(yuan);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/**
 * What PayPal charges for `fen` yuan in a currency of which one unit buys `rateFen` fen: enough
 * cents to cover the yuan, rounded up. The charge screen shows it; the order is placed with it.
 */
export function paypalChargeCents(fen: number, rateFen: number): number {
  return Math.ceil((fen * 100) / rateFen);
}

export const rechargeInputSchema = z.object({
  method: z.enum(RECHARGE_METHODS, rule('rechargeMethod')),
  /** Yuan, as typed: "99", "9.9", "1000.00". */
  amount: z
    .string(rule('rechargeAmount'))
    .trim()
    .refine((a) => {
      const fen = yuanToFen(a);
      return fen !== null && fen >= RECHARGE_MIN_FEN && fen <= RECHARGE_MAX_FEN;
    }, rule('rechargeAmount')),
});
export type RechargeInput = z.infer<typeof rechargeInputSchema>;

/** An operator's record of a bank transfer that arrived (`recharge:offline`, /admin). */
export const offlineRechargeInputSchema = z.object({
  amount: z
    .string(rule('rechargeOfflineAmount'))
    .trim()
    .refine((a) => {
      const fen = yuanToFen(a);
      return fen !== null && fen >= 1 && fen <= RECHARGE_MAX_FEN * 10;
    }, rule('rechargeOfflineAmount')),
  remitter: z
    .string(rule('rechargeRemitter'))
    .trim()
    .min(1, rule('rechargeRemitter'))
    .max(100, rule('rechargeRemitter')),
  /** The bank's reference of the transfer: one transfer is credited once. */
  bankRef: z
    .string(rule('rechargeBankRef'))
    .trim()
    .min(1, rule('rechargeBankRef'))
    .max(64, rule('rechargeBankRef')),
  note: z.string().trim().max(500).optional(),
});
export type OfflineRechargeInput = z.infer<typeof offlineRechargeInputSchema>;

/** What the charge screen offers: the methods the operator has set up, and the limits. */
export interface RechargeOptionsView {
  methods: RechargeMethod[];
  minFen: number;
  maxFen: number;
  /** PayPal charges in this currency at this rate (fen of CNY per 1 unit); null when PayPal is off. */
  paypal: { currency: string; rateFen: number } | null;
  /** True until the first recharge: it makes the account paid. */
  free: boolean;
}

/** A created online order: the browser goes to `payUrl`. */
export interface RechargeStartView {
  orderNo: string;
  payUrl: string;
}

export interface RechargeOrderView {
  orderNo: string;
  type: RechargeType;
  channel: RechargeChannel;
  amountFen: number;
  /** What the provider charged: "99.00" CNY at Alipay, "13.95" USD at PayPal. */
  providerCurrency: string;
  providerAmount: string;
  status: RechargeStatus;
  /** Alipay's trade_no, PayPal's capture id, the bank's reference. */
  providerTxnId: string | null;
  failure: string | null;
  createdAt: number;
  paidAt: number | null;
}

export interface RechargeOrdersPage {
  list: RechargeOrderView[];
  total: number;
}

export const rechargeOrdersQuerySchema = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(RECHARGE_STATUSES).optional().catch(undefined),
});
export type RechargeOrdersQuery = z.infer<typeof rechargeOrdersQuerySchema>;

const PEM = /^-----BEGIN [A-Z ]*KEY-----[\s\S]+-----END [A-Z ]*KEY-----$/;

/** An operator's Alipay merchant settings (`payments:set alipay`, /admin). */
export const alipaySettingsSchema = z.object({
  enabled: z.boolean().default(true),
  appId: z.string().trim().min(1).max(32),
  /** The merchant's partner id, 2088 and 12 digits. */
  sellerId: z
    .string()
    .trim()
    .regex(/^2088\d{12}$/),
  appPrivateKey: z.string().trim().regex(PEM),
  alipayPublicKey: z.string().trim().regex(PEM),
  gateway: z.url(),
});
export type AlipaySettingsInput = z.infer<typeof alipaySettingsSchema>;

/** An operator's PayPal REST app (`payments:set paypal`, /admin). */
export const paypalSettingsSchema = z.object({
  enabled: z.boolean().default(true),
  clientId: z.string().trim().min(1).max(128),
  clientSecret: z.string().trim().min(1).max(256),
  webhookId: z.string().trim().min(1).max(64),
  apiBase: z.url(),
  /** The currency orders are placed in (most PayPal merchants cannot take CNY). */
  currency: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/)
    .default('USD'),
  /** Fen of CNY one unit of `currency` buys: the operator's rate; 100 for CNY itself. */
  rateFen: z.coerce.number().int().min(1).max(1_000_000),
});
export type PaypalSettingsInput = z.infer<typeof paypalSettingsSchema>;

/** A provider's settings as operators see them: never a key or secret. */
export interface PaymentSettingsView {
  provider: 'alipay' | 'paypal';
  configured: boolean;
  enabled: boolean;
  /** Alipay's app id or PayPal's client id. */
  appId: string | null;
  /** The gateway or API base. */
  endpoint: string | null;
  currency: string | null;
  rateFen: number | null;
  updatedAt: number | null;
}
