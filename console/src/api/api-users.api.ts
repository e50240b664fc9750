import type { ApiKeyGraceMinutes, ApiUserEmailType } from '@herald/shared/schemas/api-user.schema';
import { http } from '../infra/http/http-client.ts';

/**
 * API_USERs (console-spec §7 "/config/categories", "/config/apikeys"). A key comes back from a
 * creation and a reset only; the reset goes without the client's toast, because a 403
 * VERIFY_REQUIRED opens the verification dialog (use-sensitive-action.tsx) instead.
 */
interface DataBody<T> {
  data: T;
}

export interface ApiKeyInfo {
  hint: string;
  createdAt: number;
  expiresAt: number | null;
}

export interface ApiUser {
  id: number;
  name: string;
  emailType: ApiUserEmailType;
  cType: 'normal' | 'test';
  domainId: number | null;
  domainName: string | null;
  domainStatus: 'unverified' | 'usable' | 'verified' | null;
  labelId: number | null;
  labelName: string | null;
  openTracking: boolean;
  clickTracking: boolean;
  unsubscribeTracking: boolean;
  createdAt: number;
  updatedAt: number;
  keys: ApiKeyInfo[];
}

export interface ApiUserInput {
  domainId?: number;
  labelId?: number | null;
  openTracking: boolean;
  clickTracking: boolean;
  unsubscribeTracking: boolean;
}

export interface BindableDomain {
  id: number;
  name: string;
  status: 'usable' | 'verified';
}

export interface IssuedKey {
  apiUser: ApiUser;
  apiKey: string;
  oldKeyExpiresAt?: number;
}

export type SenderKind = 'triggerSender' | 'batchSender';

const json = { format: 'json' } as const;

export const fetchApiUsers = async () => (await http.get<DataBody<ApiUser[]>>('/config/categories')).data;

export const fetchApiUser = async (id: number) =>
  (await http.get<DataBody<ApiUser>>(`/config/categories/${id}`)).data;

export const fetchBindableDomains = async () =>
  (await http.get<DataBody<BindableDomain[]>>('/config/categories/domains')).data;

export const checkApiUserName = async (name: string) =>
  (await http.get<DataBody<{ available: boolean }>>('/config/categories/check', { name }, { toast: false }))
    .data.available;

export const createApiUser = async (input: ApiUserInput & { name: string; emailType: ApiUserEmailType }) =>
  (await http.post<DataBody<IssuedKey>>('/config/categories', { ...input }, { ...json, toast: false })).data;

export const updateApiUser = async (id: number, input: ApiUserInput) =>
  (await http.patch<DataBody<ApiUser>>(`/config/categories/${id}`, { ...input }, { ...json, toast: false }))
    .data;

export const deleteApiUser = (id: number) => http.delete(`/config/categories/${id}`);

export const resetApiKey = async (apiUserId: number, expiresInMinutes: ApiKeyGraceMinutes) =>
  (
    await http.post<DataBody<IssuedKey>>(
      '/config/apikeys',
      { apiUserId, expiresInMinutes },
      { ...json, toast: false },
    )
  ).data;

export const fetchSender = async (kind: SenderKind) =>
  (await http.get<DataBody<ApiUser | null>>(`/config/categories/${kind}`)).data;

export const saveSender = (kind: SenderKind, apiUserId: number | null) =>
  http.put(`/config/categories/${kind}`, { apiUserId }, json);
