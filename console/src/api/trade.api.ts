import type { LedgerKind } from '@herald/shared/schemas/ledger.schema';
import type {
  BillView,
  ConsumptionView,
  ReceiptsPage,
  ReceiptView,
  TradeRecordsPage,
  TradeRecordView,
} from '@herald/shared/schemas/trade.schema';
import { http } from '../infra/http/http-client.ts';
import { downloadCsv } from './csv-download.ts';

/**
 * The ledger's views (issue 18): trade records and their CSV, today's and yesterday's
 * consumption, receipts of paid recharges, and a Beijing month's bill and its CSV.
 */
export type { BillView, ConsumptionView, LedgerKind, ReceiptView, TradeRecordView };

interface DataBody<T> {
  data: T;
}

export interface TradeFilter {
  kind?: LedgerKind;
  from: string;
  to: string;
}

const search = (params: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => Boolean(e[1]))).toString();

export const fetchTradeRecords = async (filter: TradeFilter & { pageNum: number; pageSize: number }) =>
  (await http.get<DataBody<TradeRecordsPage>>('/trade/records', { ...filter })).data;

export const downloadTradeRecords = (filter: TradeFilter) =>
  downloadCsv(`/trade/records/export?${search({ ...filter })}`, {}, `trade-${filter.from}-${filter.to}.csv`);

export const fetchConsumption = async () =>
  (await http.get<DataBody<ConsumptionView>>('/trade/consumption')).data;

export const fetchReceipts = async (query: { pageNum: number; pageSize: number }) =>
  (await http.get<DataBody<ReceiptsPage>>('/trade/receipts', query)).data;

export const fetchReceipt = async (orderNo: string) =>
  (await http.get<DataBody<ReceiptView>>(`/trade/receipts/${encodeURIComponent(orderNo)}`)).data;

export const fetchBillMonths = async () => (await http.get<DataBody<string[]>>('/bill/months')).data;

export const fetchBill = async (month: string) =>
  (await http.get<DataBody<BillView>>('/bill', { month })).data;

export const downloadBill = (month: string) =>
  downloadCsv(`/bill/export?${search({ month })}`, {}, `bill-${month}.csv`);
