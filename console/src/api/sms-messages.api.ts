import type {
  SmsDataView,
  SmsStatusRow,
  SmsTestOptions,
  SmsTestSendInput,
  SmsTestSendResult,
} from '@herald/shared/schemas/sms-send.schema';
import type { SmsStatus } from '@herald/shared/sms-status';
import { http } from '../infra/http/http-client.ts';

/** The SMS test send and status list (console calls `/sms/test`, `/sms/smsStatus`). */
interface DataBody<T> {
  data: T;
}

export type { SmsStatusRow, SmsTestOptions, SmsTestSendResult };

export interface SmsStatusFilter {
  startTime: number;
  endTime: number;
  phone?: string;
  smsId?: string;
  status?: SmsStatus;
  /** One of the account's SMS labels. */
  labelId?: number;
  page: number;
  pageSize: number;
}

export const fetchSmsTestOptions = async () =>
  (await http.get<DataBody<SmsTestOptions>>('/sms/test/options')).data;

export const sendSmsTest = async (input: SmsTestSendInput) =>
  (await http.post<DataBody<SmsTestSendResult>>('/sms/test', input, { format: 'json' })).data;

export const fetchSmsStatus = async (filter: SmsStatusFilter) =>
  http.get<{ data: SmsStatusRow[]; total: number }>('/sms/smsStatus', { ...filter });

export const fetchSmsData = async (range: { startTime: number; endTime: number }) =>
  (await http.get<DataBody<SmsDataView>>('/sms/smsData', { ...range })).data;
