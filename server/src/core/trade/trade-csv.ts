import {
  type BillView,
  fenToYuan,
  type Lang,
  type LedgerKind,
  PRICE_CATALOGUE,
  type TradeRecordView,
} from '@herald/shared';
import { BOM, type Cell, csvLine, timeText } from '../exports/csv.ts';

/** The trade and bill exports: UTF-8 with a BOM (Excel reads Chinese), headed in the caller's language. */

const KIND: Record<LedgerKind, Record<Lang, string>> = {
  recharge: { 'zh-cn': '充值', en: 'Recharge' },
  charge: { 'zh-cn': '消费', en: 'Charge' },
  refund: { 'zh-cn': '退款', en: 'Refund' },
  voucher: { 'zh-cn': '代金券', en: 'Voucher' },
  adjustment: { 'zh-cn': '调账', en: 'Adjustment' },
};

const TRADE_HEADER: Record<Lang, string[]> = {
  'zh-cn': ['交易时间', '类型', '金额(元)', '余额(元)', '产品', '计费日期', '数量', '订单号', '说明'],
  en: ['Time', 'Type', 'Amount (yuan)', 'Balance (yuan)', 'Product', 'Billing day', 'Units', 'Order', 'Note'],
};

const BILL_HEADER: Record<Lang, string[]> = {
  'zh-cn': ['月份', '项目', '数量', '金额(元)'],
  en: ['Month', 'Item', 'Units', 'Amount (yuan)'],
};

const BILL_LINES: Record<string, Record<Lang, string>> = {
  opening: { 'zh-cn': '期初余额', en: 'Opening balance' },
  recharged: { 'zh-cn': '充值合计', en: 'Recharges' },
  adjusted: { 'zh-cn': '调账合计', en: 'Adjustments' },
  other: { 'zh-cn': '退款及代金券', en: 'Refunds and vouchers' },
  charged: { 'zh-cn': '消费合计', en: 'Charges' },
  closing: { 'zh-cn': '期末余额', en: 'Closing balance' },
  other_product: { 'zh-cn': '其他', en: 'Other' },
};

/**
 * Amounts go out as they are ("-1.50"): csvLine would guard a leading minus as a formula, which
 * a figure of ours never is; every other cell is quoted and guarded by csvLine.
 */
class Yuan {
  readonly fen: number;
  constructor(fen: number) {
    this.fen = fen;
  }
}

function row(cells: (Cell | Yuan)[]): string {
  const text = cells.map((c) => (c instanceof Yuan ? fenToYuan(c.fen) : csvLine([c]).slice(0, -2)));
  return `${text.join(',')}\r\n`;
}

export function productName(code: string | null, lang: Lang): string {
  if (!code) return '';
  const item = PRICE_CATALOGUE.find((p) => p.code === code);
  return item
    ? item[lang]
    : code === 'other'
      ? (BILL_LINES.other_product as Record<Lang, string>)[lang]
      : code;
}

export function tradeCsv(rows: TradeRecordView[], lang: Lang): string {
  let text = BOM + csvLine(TRADE_HEADER[lang]);
  for (const r of rows) {
    text += row([
      timeText(r.createdAt),
      KIND[r.kind][lang],
      new Yuan(r.amountFen),
      new Yuan(r.balanceAfterFen),
      productName(r.code, lang),
      r.day,
      r.units,
      r.orderNo,
      r.reason,
    ]);
  }
  return text;
}

export function billCsv(bill: BillView, lang: Lang): string {
  const line = (key: string, fen: number) =>
    row([bill.month, (BILL_LINES[key] as Record<Lang, string>)[lang], '', new Yuan(fen)]);
  let text = BOM + csvLine(BILL_HEADER[lang]) + line('opening', bill.openingFen);
  for (const p of bill.products) {
    text += row([bill.month, productName(p.code, lang), p.units, new Yuan(p.amountFen)]);
  }
  text +=
    line('charged', bill.chargedFen) +
    line('recharged', bill.rechargedFen) +
    line('adjusted', bill.adjustedFen) +
    line('other', bill.otherFen) +
    line('closing', bill.closingFen);
  return text;
}
