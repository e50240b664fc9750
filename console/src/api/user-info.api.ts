import type { UserBalance, UserInfo } from '@herald/shared/schemas/account.schema';
import { http } from '../infra/http/http-client.ts';

/** `/v3/api/userInfo/*`: who is logged in and their balance (console-spec §7 "Auth and user"). */
interface DataBody<T> {
  data: T;
}

export async function fetchUserInfo(): Promise<UserInfo> {
  return (await http.get<DataBody<UserInfo>>('/userInfo')).data;
}

/** A background load: a failure shows no toast (the header simply shows no balance). */
export async function fetchUserBalance(): Promise<UserBalance> {
  return (await http.get<DataBody<UserBalance>>('/userInfo/userBalance', undefined, { toast: false })).data;
}

/** The contact info call treats `success: false` as a failure with the server's message (§8). */
export async function fetchUserContactInfo(): Promise<Record<string, unknown>> {
  const body = await http.get<{ success?: boolean; message?: string; data?: Record<string, unknown> }>(
    '/userInfo/userContactInfo',
  );
  if (body.success === false) throw new Error(body.message ?? 'userContactInfo failed');
  return body.data ?? {};
}
