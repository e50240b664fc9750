import type { ApiUserOption } from '@herald/shared/schemas/api-user.schema';
import type { LabelOption } from '@herald/shared/schemas/label.schema';
import type {
  BucketFigures,
  DeliveryTime,
  Figures,
  MonitorConfigView,
  MonitorRow,
  ReceiveDomainRow,
  ReputationDetail,
  SendSeries,
  StatOverview,
  Thresholds,
} from '@herald/shared/schemas/statistics.schema';
import { http } from '../../infra/http/http-client.ts';
import type { Params } from '../../infra/http/request-params.ts';

export type {
  BucketFigures,
  DeliveryTime,
  Figures,
  MonitorConfigView,
  MonitorRow,
  ReceiveDomainRow,
  ReputationDetail,
  SendSeries,
  StatOverview,
  Thresholds,
};

/**
 * The data centre's calls (console-spec §7 "/stat/*", "/user/UserReputationDetail"). Every GET
 * here goes through the HTTP client's rule for stat URLs (console-spec §4 item 6): a repeated
 * pending GET of the same path cancels the earlier one, which rejects silently.
 */
interface DataBody<T> {
  data: T;
}

export interface StatParams {
  preset?: string;
  from?: string;
  to?: string;
  apiUserId?: number;
  labelId?: number;
  domain?: string;
  groupBy?: 'day' | 'hour';
}

const get = async <T>(path: string, params: StatParams) =>
  (await http.get<DataBody<T>>(path, { ...params })).data;

export const fetchSendSeries = (p: StatParams) => get<SendSeries>('/stat/send', p);
export const fetchDeliveryTime = (p: StatParams) => get<DeliveryTime>('/stat/deliveryTime', p);
export const fetchReceiveDomains = (p: StatParams) =>
  get<{ rows: ReceiveDomainRow[] }>('/stat/receiveDomain', p);
export const fetchOverview = (p: StatParams) => get<StatOverview>('/stat/overview', p);
export const fetchMonitor = (p: StatParams) => get<{ rows: MonitorRow[] }>('/stat/monitor', p);
export const fetchReputation = (p: StatParams) => get<ReputationDetail>('/user/UserReputationDetail', p);

export const fetchMonitorConfigs = async () =>
  (await http.get<DataBody<MonitorConfigView[]>>('/stat/monitorConfigs')).data;
export const createMonitorConfig = async (body: Params) =>
  (
    await http.post<DataBody<MonitorConfigView>>('/stat/monitorConfigs', body, {
      format: 'json',
      toast: false,
    })
  ).data;
export const updateMonitorConfig = async (id: number, body: Params) =>
  (
    await http.patch<DataBody<MonitorConfigView>>(`/stat/monitorConfigs/${id}`, body, {
      format: 'json',
      toast: false,
    })
  ).data;
export const deleteMonitorConfig = (id: number) => http.delete(`/stat/monitorConfigs/${id}`);

export const fetchApiUserOptions = async () =>
  (
    await http.get<DataBody<ApiUserOption[]>>('/config/categories/combobox', undefined, {
      toast: false,
    })
  ).data;
export const fetchLabelOptions = async () =>
  (
    await http.get<DataBody<LabelOption[]>>('/config/labels/combobox', undefined, {
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
