import type {
  IssuedSmsKey,
  ReissuedSmsKey,
  SmsKeyResetInput,
  SmsUserCreateInput,
  SmsUserView,
} from '@herald/shared/schemas/sms-user.schema';
import { http } from '../infra/http/http-client.ts';

/** SMS_USERs (console-spec §7 "/sms/smsUsers"). */
interface DataBody<T> {
  data: T;
}

export type { IssuedSmsKey, ReissuedSmsKey, SmsUserView };

export const fetchSmsUsers = async () => (await http.get<DataBody<SmsUserView[]>>('/sms/smsUsers')).data;

export const createSmsUser = async (input: SmsUserCreateInput) =>
  (await http.post<DataBody<IssuedSmsKey>>('/sms/smsUsers', input)).data;

export const resetSmsKey = async (input: SmsKeyResetInput) =>
  (await http.post<DataBody<ReissuedSmsKey>>('/sms/smsKeys', input)).data;
