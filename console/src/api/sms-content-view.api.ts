import type { SmsContentView } from '@herald/shared/schemas/sms-content-view.schema';
import { http } from '../infra/http/http-client.ts';

/** The SMS content view switch (console calls `/sms/smsContent`). */
export type { SmsContentView };

export const fetchSmsContentView = async () =>
  (await http.get<{ data: SmsContentView }>('/sms/smsContent')).data;

export const saveSmsContentView = async (enabled: boolean) =>
  (await http.put<{ data: SmsContentView }>('/sms/smsContent', { enabled }, { format: 'json' })).data;
