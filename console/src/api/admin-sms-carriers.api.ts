import type {
  SmsCarrierCreateInput,
  SmsCarriersList,
  SmsCarrierUpdateInput,
  SmsCarrierView,
  SmsRouteInput,
} from '@herald/shared/schemas/sms-carrier.schema';
import { http } from '../infra/http/http-client.ts';

/** The platform operators' SMS carriers and routes (/admin/smsCarriers). */
interface DataBody<T> {
  data: T;
}

export type { SmsCarrierView };

/** The list's query key: every change refreshes it. */
export const SMS_CARRIERS_QUERY = ['admin-sms-carriers'] as const;

const BASE = '/admin/smsCarriers';
const json = { format: 'json' } as const;
const of = (name: string) => `${BASE}/${encodeURIComponent(name)}`;

export const fetchSmsCarriers = async () => (await http.get<DataBody<SmsCarriersList>>(BASE)).data;

export const createSmsCarrier = async (input: SmsCarrierCreateInput) =>
  (await http.post<DataBody<SmsCarrierView>>(BASE, { ...input }, json)).data;

export const updateSmsCarrier = async (name: string, input: SmsCarrierUpdateInput) =>
  (await http.put<DataBody<SmsCarrierView>>(of(name), { ...input }, json)).data;

export const setSmsCarrierEnabled = async (name: string, enabled: boolean) =>
  (
    await http.post<DataBody<SmsCarrierView>>(
      `${of(name)}/${enabled ? 'enable' : 'disable'}`,
      undefined,
      json,
    )
  ).data;

export const removeSmsCarrier = (name: string) => http.delete(of(name));

export const addSmsRoute = async (carrier: string, input: SmsRouteInput) =>
  (await http.post<DataBody<SmsCarrierView>>(`${of(carrier)}/routes`, { ...input }, json)).data;

export const removeSmsRoute = (carrier: string, routeId: number) =>
  http.delete(`${of(carrier)}/routes/${routeId}`);
