import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';
import { LEDGER_KINDS, type LedgerKind } from './ledger.schema.ts';
import type { RechargeChannel, RechargeType } from './recharge.schema.ts';
import { addDays, addMonths, daySpan, statDay } from './statistics.schema.ts';

/**
 * Trade records, real-time consumption, receipts and bills (issue 18; console
 * `/accountSetting/trade` with `receipt` and `tradeDetails`, `/accountSetting/bill`): views of
 * the ledger, never a table of their own. Days and months are Beijing (UTC+8) calendar days and
 * months; bills are kept 3 years (product-spec §9), and one query spans at most a year.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const TRADE_HISTORY_MONTHS = 36;
export const TRADE_SPAN_MAX_DAYS = 366;
/** A CSV export holds at most this many rows (a year of a busy account's entries fits). */
export const TRADE_EXPORT_MAX_ROWS = 100_000;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const empty = (v: unknown) => (v === '' || v === null ? undefined : v);

function isCalendarDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}

const dayField = z.string(rule('statDateFormat')).trim().refine(isCalendarDay, rule('statDateFormat'));

/** The first day of the oldest month still kept, `today`'s month included in the 36. */
export function tradeOldestDay(today: string): string {
  return addMonths(`${today.slice(0, 7)}-01`, 1 - TRADE_HISTORY_MONTHS);
}

/** The last 36 Beijing months, newest first (`YYYY-MM`). */
export function tradeMonths(today: string): string[] {
  const first = `${today.slice(0, 7)}-01`;
  return Array.from({ length: TRADE_HISTORY_MONTHS }, (_, i) => addMonths(first, -i).slice(0, 7));
}

/**
 * The trade-record query: a kind, and a range of Beijing days (default the last 30) within the
 * last 36 months, at most a year long; `pageNum`/`pageSize` for the table.
 */
export function tradeQuerySchema(today: string) {
  return z
    .object({
      kind: z.preprocess(empty, z.enum(LEDGER_KINDS, rule('invalid')).optional()),
      from: z.preprocess(empty, dayField.optional()),
      to: z.preprocess(empty, dayField.optional()),
      pageNum: z.coerce.number().int().min(1).default(1),
      pageSize: z.coerce.number().int().min(1).max(100).default(20),
    })
    .transform((value, ctx) => {
      const to = value.to ?? today;
      const from = value.from ?? (value.to ? to : addDays(today, -29));
      const issue = (path: string, key: ValidationKey) => {
        ctx.addIssue({ code: 'custom', path: [path], message: key });
        return z.NEVER;
      };
      if (to < from) return issue('to', 'statRangeOrder');
      if (to > today) return issue('to', 'statRangeFuture');
      if (from < tradeOldestDay(today)) return issue('from', 'tradeRangeTooOld');
      if (daySpan(from, to) > TRADE_SPAN_MAX_DAYS) return issue('to', 'tradeRangeSpan');
      return { kind: value.kind, from, to, pageNum: value.pageNum, pageSize: value.pageSize };
    });
}
export type TradeQuery = z.output<ReturnType<typeof tradeQuerySchema>>;

/** A bill's month (`YYYY-MM`), one of the last 36; default the current one. */
export function billQuerySchema(today: string) {
  const months = tradeMonths(today);
  return z.object({
    month: z.preprocess(
      empty,
      z
        .string(rule('tradeMonthFormat'))
        .trim()
        .refine((m) => MONTH.test(m) && months.includes(m), rule('tradeMonthFormat'))
        .default(today.slice(0, 7)),
    ),
  });
}
export type BillQuery = z.output<ReturnType<typeof billQuerySchema>>;

export const receiptsQuerySchema = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type ReceiptsQuery = z.infer<typeof receiptsQuerySchema>;

/** The Beijing month (`YYYY-MM`) of an instant. */
export function tradeMonthOf(at: number): string {
  return statDay(at).slice(0, 7);
}

/** One ledger entry in the trade table, with the balance right after it. */
export interface TradeRecordView {
  id: number;
  kind: LedgerKind;
  /** Signed: a recharge positive, a charge negative. */
  amountFen: number;
  balanceAfterFen: number;
  reason: string;
  /** A charge's price code, Beijing day and units; a recharge's order number. */
  code: string | null;
  day: string | null;
  units: number | null;
  orderNo: string | null;
  createdAt: number;
}

export interface TradeRecordsPage {
  list: TradeRecordView[];
  total: number;
  balanceFen: number;
}

/** What charging by result has counted of one price item on one day. */
export interface ConsumptionItemView {
  code: string;
  units: number;
  /** The exact amount so far, rounded up to the fen. */
  accruedFen: number;
  /** What has been taken from the balance for it so far. */
  chargedFen: number;
  /** The price: `priceFen` per `priceUnit` items; null for an item no longer priced. */
  priceFen: number | null;
  priceUnit: number | null;
}

export interface ConsumptionDayView {
  day: string;
  items: ConsumptionItemView[];
  accruedFen: number;
  chargedFen: number;
}

export interface ConsumptionView {
  today: ConsumptionDayView;
  yesterday: ConsumptionDayView;
  balanceFen: number;
}

/** A paid recharge as its receipt prints it. */
export interface ReceiptView {
  orderNo: string;
  /** The paying account's name. */
  account: string;
  amountFen: number;
  /** The amount in Chinese capital numerals (大写), for the zh-cn receipt. */
  amountCapital: string;
  channel: RechargeChannel;
  type: RechargeType;
  providerTxnId: string | null;
  paidAt: number;
}

export interface ReceiptsPage {
  list: ReceiptView[];
  total: number;
}

export interface BillProductLine {
  code: string;
  units: number;
  /** Charged, as a positive amount. */
  amountFen: number;
}

/**
 * A Beijing month's bill. Charges count in the month of the day their outcomes happened (the
 * `day` of the entry's detail, even when charged just after midnight); every other entry counts
 * in the month it was posted. Opening and closing balances follow the same rule, so
 * closing = opening + recharged + adjusted + other − charged.
 */
export interface BillView {
  month: string;
  openingFen: number;
  closingFen: number;
  chargedFen: number;
  rechargedFen: number;
  adjustedFen: number;
  /** Refunds and vouchers. */
  otherFen: number;
  products: BillProductLine[];
}

const DIGITS = '零壹贰叁肆伍陆柒捌玖';
const PLACES = ['', '拾', '佰', '仟'];
const SECTIONS = ['', '万', '亿', '万'];

/** Fen in Chinese capital numerals as a receipt writes them: 12345.67 → 壹万贰仟叁佰肆拾伍元陆角柒分. */
export function fenToCapital(fen: number): string {
  const yuan = String(Math.floor(Math.abs(fen) / 100));
  const jiao = Math.floor(Math.abs(fen) / 10) % 10;
  const cents = Math.abs(fen) % 10;
  let text = '';
  if (yuan !== '0') {
    let zero = false;
    for (let i = 0; i < yuan.length; i++) {
      const digit = Number(yuan[i]);
      const place = yuan.length - 1 - i;
      if (digit === 0) {
        zero = true;
        const section = yuan.slice(Math.max(0, i - 3), i + 1);
        if (place % 4 === 0 && place > 0 && Number(section.slice(-Math.min(4, section.length))) > 0) {
          text += SECTIONS[place / 4];
          zero = false;
        }
        continue;
      }
      if (zero) text += '零';
      zero = false;
      text += `${DIGITS[digit]}${PLACES[place % 4]}`;
      if (place % 4 === 0 && place > 0) text += SECTIONS[place / 4];
    }
    text += '元';
  }
  if (jiao === 0 && cents === 0) return `${text || '零元'}整`;
  if (jiao > 0) text += `${DIGITS[jiao]}角`;
  else if (text) text += '零';
  if (cents > 0) text += `${DIGITS[cents]}分`;
  return `${fen < 0 ? '负' : ''}${text}`;
}
