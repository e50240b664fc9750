import type {
  SmsFrequencyLimit,
  SmsPauseAlerts,
  SmsPauseStatus,
  SmsPauseView,
} from '@herald/shared/schemas/sms-protection.schema';
import { http } from '../infra/http/http-client.ts';

/** Anti-bombing limits (console call `/sms/smsFrequencyLimit`). */
export const fetchSmsFrequencyLimit = async () =>
  (await http.get<{ data: SmsFrequencyLimit }>('/sms/smsFrequencyLimit')).data;

export const saveSmsFrequencyLimit = async (limits: SmsFrequencyLimit) =>
  (await http.put<{ data: SmsFrequencyLimit }>('/sms/smsFrequencyLimit', limits, { format: 'json' })).data;

/** Template pauses of anti-bombing (console call `/sms/suspend`). */
export const fetchSmsPauses = async (query: { status?: SmsPauseStatus; page: number; pageSize: number }) =>
  (await http.get<{ data: { total: number; list: SmsPauseView[] } }>('/sms/suspend', query)).data;

export const fetchSmsPauseAlerts = async () =>
  (await http.get<{ data: SmsPauseAlerts }>('/sms/suspend/alerts')).data;

export const continueSmsPause = async (id: number) =>
  (await http.post<{ data: SmsPauseView }>(`/sms/suspend/${id}/continue`, {}, { format: 'json' })).data;

export const cancelSmsPause = async (id: number) =>
  (await http.post<{ data: SmsPauseView }>(`/sms/suspend/${id}/cancel`, {}, { format: 'json' })).data;
