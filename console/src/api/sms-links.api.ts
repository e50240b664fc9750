import type {
  SmsClickDay,
  SmsLinkClickView,
  SmsLinkSettingView,
} from '@herald/shared/schemas/sms-link.schema';
import { http } from '../infra/http/http-client.ts';

/** SMS link tracking (console calls `/sms/shortLink`, `/sms/linkClicks`, `/sms/clickDatas`). */
export type { SmsClickDay, SmsLinkClickView, SmsLinkSettingView };

export const fetchSmsLinkSetting = async () =>
  (await http.get<{ data: SmsLinkSettingView }>('/sms/shortLink')).data;

export const saveSmsLinkSetting = async (enabled: boolean) =>
  (await http.put<{ data: SmsLinkSettingView }>('/sms/shortLink', { enabled }, { format: 'json' })).data;

export const fetchSmsLinkClicks = async (filter: {
  startTime: number;
  endTime: number;
  phone?: string;
  page: number;
  pageSize: number;
}) => {
  const { data } = await http.get<{ data: { total: number; list: SmsLinkClickView[] } }>('/sms/linkClicks', {
    ...filter,
  });
  return { data: data.list, total: data.total };
};

export const fetchSmsClickData = async (range: { startTime: number; endTime: number }) =>
  (await http.get<{ data: SmsClickDay[] }>('/sms/clickDatas', range)).data;
