import type {
  AccountDetails,
  AccountHolderType,
  EnterpriseInfo,
} from '@herald/shared/schemas/profile.schema';
import { http } from '../infra/http/http-client.ts';

export type { AccountDetails };

/**
 * The account's details (console-spec §7 `/userInfo/edited/{accountType, enterprise, personal,
 * exmail}`). Changes go without the client's toast: the screen runs them through
 * useSensitiveAction, which opens the verification dialog on VERIFY_REQUIRED and reports the rest.
 */
interface DataBody<T> {
  data: T;
}

const json = { format: 'json', toast: false } as const;

export const fetchAccountDetails = async () =>
  (await http.get<DataBody<AccountDetails>>('/userInfo/details')).data;

export const saveAccountType = (accountType: AccountHolderType) =>
  http.patch('/userInfo/edited/accountType', { accountType }, json);

export const saveEnterprise = (info: EnterpriseInfo) => http.patch('/userInfo/edited/enterprise', info, json);

export const savePersonal = (info: { realName: string; idNumber: string }) =>
  http.patch('/userInfo/edited/personal', info, json);

export const saveExmail = (email: string) => http.patch('/userInfo/edited/exmail', { email }, json);
