import type { StatCounters, StatRates } from '@herald/shared/schemas/statistics.schema';
import { http } from '../../infra/http/http-client.ts';
import type { Params } from '../../infra/http/request-params.ts';

/**
 * The data centre's calls (console-spec §7 "/stat/*", "/user/UserReputationDetail"). Every GET
 * here goes through the HTTP client's rule for stat URLs (console-spec §4 item 6): a repeated
 * pending GET of the same path cancels the earlier one, which rejects silently.
 */
interface DataBody<T> {
  data: T;
}

export type Figures = StatCounters & StatRates;

export interface StatParams {
  preset?: string;
  from?: string;
  to?: string;
  apiUserId?: number;
  labelId?: number;
  domain?: string;
  groupBy?: 'day' | 'hour';
}

export interface SendSeries {
  from: string;
  to: string;
  groupBy: 'day' | 'hour';
  points: ({ day: string; hour?: number } & Figures)[];
  totals: Figures;
}

export interface BucketFigures {
  total: number;
  counts: number[];
  percents: number[];
}

export interface DeliveryTime {
  buckets: string[];
  totals: BucketFigures;
  byDay: ({ day: string } & BucketFigures)[];
  byDomain: ({ domain: string } & BucketFigures)[];
}

export type DomainRow = { domain: string; share: number } & Figures;

export interface Overview {
  today: Figures;
  yesterday: Figures;
  totals: Figures;
  trend: ({ day: string } & StatCounters)[];
}

export interface Thresholds {
  minDeliveredRate: number | null;
  maxInvalidRate: number | null;
  minOpenRate: number | null;
}

export type MonitorRow = { domain: string; thresholds: Thresholds; alerts: string[] } & Figures;

export type MonitorConfig = { id: number; recipientDomain: string; updatedAt: number } & Thresholds;

export interface ReputationDetail {
  score: number;
  yesterday: { delivered: number; opened: number; clicked: number; invalid: number; spamReported: number };
  history: {
    day: string;
    score: number;
    requested: number;
    delivered: number;
    opened: number;
    clicked: number;
    invalid: number;
    spamReported: number;
  }[];
}

const get = async <T>(path: string, params: StatParams) =>
  (await http.get<DataBody<T>>(path, { ...params })).data;

export const fetchSendSeries = (p: StatParams) => get<SendSeries>('/stat/send', p);
export const fetchDeliveryTime = (p: StatParams) => get<DeliveryTime>('/stat/deliveryTime', p);
export const fetchReceiveDomains = (p: StatParams) => get<{ rows: DomainRow[] }>('/stat/receiveDomain', p);
export const fetchOverview = (p: StatParams) => get<Overview>('/stat/overview', p);
export const fetchMonitor = (p: StatParams) => get<{ rows: MonitorRow[] }>('/stat/monitor', p);
export const fetchReputation = (p: StatParams) => get<ReputationDetail>('/user/UserReputationDetail', p);

export const fetchMonitorConfigs = async () =>
  (await http.get<DataBody<MonitorConfig[]>>('/stat/monitorConfigs')).data;
export const createMonitorConfig = async (body: Params) =>
  (await http.post<DataBody<MonitorConfig>>('/stat/monitorConfigs', body, { format: 'json', toast: false }))
    .data;
export const updateMonitorConfig = async (id: number, body: Params) =>
  (
    await http.patch<DataBody<MonitorConfig>>(`/stat/monitorConfigs/${id}`, body, {
      format: 'json',
      toast: false,
    })
  ).data;
export const deleteMonitorConfig = (id: number) => http.delete(`/stat/monitorConfigs/${id}`);

export const fetchApiUserOptions = async () =>
  (
    await http.get<DataBody<{ value: number; label: string }[]>>('/config/categories/combobox', undefined, {
      toast: false,
    })
  ).data;
export const fetchLabelOptions = async () =>
  (
    await http.get<DataBody<{ value: number; label: string }[]>>('/config/labels/combobox', undefined, {
      toast: false,
    })
  ).data;

/** The CSV of the send series (a download: the server applies download verification). */
export async function exportSendSeries(p: StatParams): Promise<void> {
  const csv = await http.get<string>('/stat/send/export', { ...p });
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `send-data-${p.from ?? p.preset ?? 'range'}.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
