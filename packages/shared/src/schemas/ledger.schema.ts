import { z } from 'zod';

/**
 * The money vocabulary (issue 18). Money is integer fen (1/100 yuan) everywhere; a price is a
 * whole number of fen per `unit` items, so a price below one fen per item (email per thousand,
 * traffic per MB) stays exact. Charging accrues in thousandths of a fen (`millifen`), which
 * every allowed unit divides exactly.
 */
export const LEDGER_KINDS = ['recharge', 'charge', 'refund', 'voucher', 'adjustment'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const PRICE_UNITS = [1, 10, 100, 1000] as const;

/** Under this balance a paid account is warned (once per crossing) before sending stops at zero. */
export const LOW_BALANCE_FEN = 5000;

export interface PriceItem {
  code: string;
  /** How many items `fen` buys: 1000 for email (billed per thousand), 1 for an SMS part. */
  unit: number;
  fen: number;
  'zh-cn': string;
  en: string;
  /** True where the product spec names no figure: the operator must set the real price. */
  placeholder: boolean;
}

/**
 * The prices the `prices` table is seeded with (product-spec §9; SMS, voice and MMS prices are
 * not in any stored SendCloud page, so they are placeholders the operator sets, reference §7).
 */
export const PRICE_CATALOGUE: readonly PriceItem[] = [
  {
    code: 'email',
    unit: 1000,
    fen: 100,
    'zh-cn': '邮件(送达、软退信、无效地址), 每千封',
    en: 'Email (delivered, soft bounce, invalid), per 1,000',
    placeholder: true,
  },
  {
    code: 'email_traffic',
    unit: 1000,
    fen: 200,
    'zh-cn': '邮件超出200KB的流量, 每1000MB',
    en: 'Email traffic over 200 KB per mail, per 1,000 MB',
    placeholder: false,
  },
  {
    code: 'sms_domestic',
    unit: 1,
    fen: 4,
    'zh-cn': '国内短信, 每条计费条数',
    en: 'Domestic SMS, per billed part',
    placeholder: true,
  },
  {
    code: 'sms_international',
    unit: 1,
    fen: 35,
    'zh-cn': '国际短信(未单独定价的国家), 每条计费条数',
    en: 'International SMS (countries without a price of their own), per billed part',
    placeholder: true,
  },
  {
    code: 'sms_voice',
    unit: 1,
    fen: 10,
    'zh-cn': '语音短信, 每条',
    en: 'Voice SMS, per call',
    placeholder: true,
  },
  { code: 'sms_mms', unit: 1, fen: 20, 'zh-cn': '彩信, 每条', en: 'MMS, per message', placeholder: true },
  {
    code: 'sms_notification',
    unit: 1,
    fen: 6,
    'zh-cn': '短信通知, 每条',
    en: 'SMS notification, each',
    placeholder: false,
  },
  {
    code: 'dedicated_ip',
    unit: 1,
    fen: 50_000,
    'zh-cn': '独立IP, 每IP每月',
    en: 'Dedicated IP, per IP per month',
    placeholder: false,
  },
  {
    code: 'passing_service',
    unit: 1,
    fen: 19_900,
    'zh-cn': '通道服务费, 每月',
    en: 'Passing service fee, per month',
    placeholder: false,
  },
  {
    code: 'passing_ip',
    unit: 1,
    fen: 10_000,
    'zh-cn': '通道租用IP, 每IP每月',
    en: 'Passing service rented IP, per IP per month',
    placeholder: false,
  },
  {
    code: 'inbox_insight',
    unit: 1,
    fen: 59_900,
    'zh-cn': '收件箱洞察, 每配置每月',
    en: 'Inbox insight, per configuration per month',
    placeholder: false,
  },
];

export const priceInputSchema = z.object({
  unit: z.coerce
    .number()
    .int()
    .refine((u) => (PRICE_UNITS as readonly number[]).includes(u)),
  fen: z.coerce.number().int().min(0).max(100_000_000),
});
export type PriceInput = z.infer<typeof priceInputSchema>;

export const adjustmentInputSchema = z.object({
  amountFen: z.coerce
    .number()
    .int()
    .refine((n) => n !== 0 && Math.abs(n) <= 100_000_000_00),
  reason: z.string().trim().min(1).max(500),
  /** Makes a retried request harmless; a fresh one is made when absent. */
  idempotencyKey: z.string().trim().min(1).max(128).optional(),
});
export type AdjustmentInput = z.infer<typeof adjustmentInputSchema>;

export interface PriceView {
  code: string;
  unit: number;
  fen: number;
  updatedAt: number;
}

/** The balance at the end of a Beijing day (`YYYY-MM-DD`); today's is the balance now. */
export interface BalancePoint {
  day: string;
  balanceFen: number;
}

export interface LedgerEntryView {
  id: number;
  kind: LedgerKind;
  amountFen: number;
  reason: string;
  idempotencyKey: string;
  createdAt: number;
}

/** A balance in fen, for display divided by 100. */
export function fenToYuan(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(fen);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
