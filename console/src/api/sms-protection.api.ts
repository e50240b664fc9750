import type { SmsFrequencyLimit } from '@herald/shared/schemas/sms-protection.schema';
import { http } from '../infra/http/http-client.ts';

/** Anti-bombing limits (console call `/sms/smsFrequencyLimit`). */
export const fetchSmsFrequencyLimit = async () =>
  (await http.get<{ data: SmsFrequencyLimit }>('/sms/smsFrequencyLimit')).data;

export const saveSmsFrequencyLimit = async (limits: SmsFrequencyLimit) =>
  (await http.put<{ data: SmsFrequencyLimit }>('/sms/smsFrequencyLimit', limits, { format: 'json' })).data;
