import type {
  ApiKeyGraceMinutes,
  ApiKeyView,
  ApiUserEmailType,
  ApiUserView,
  BindableDomainView,
  DefaultSenderPath,
  IssuedKey,
  ReissuedKey,
} from '@herald/shared/schemas/api-user.schema';
import { http } from '../infra/http/http-client.ts';

export type { ApiKeyView, ApiUserView, DefaultSenderPath, IssuedKey, ReissuedKey };

/**
 * API_USERs (console-spec §7 "/config/categories", "/config/apikeys"). A key comes back from a
 * creation and a reset only; the reset goes without the client's toast, because a 403
 * VERIFY_REQUIRED opens the verification dialog (use-sensitive-action.tsx) instead.
 */
interface DataBody<T> {
  data: T;
}

export interface ApiUserInput {
  domainId?: number;
  labelId?: number | null;
  openTracking: boolean;
  clickTracking: boolean;
  unsubscribeTracking: boolean;
}

const json = { format: 'json' } as const;

export const fetchApiUsers = async () => (await http.get<DataBody<ApiUserView[]>>('/config/categories')).data;

export const fetchApiUser = async (id: number) =>
  (await http.get<DataBody<ApiUserView>>(`/config/categories/${id}`)).data;

export const fetchBindableDomains = async () =>
  (await http.get<DataBody<BindableDomainView[]>>('/config/categories/domains')).data;

export const checkApiUserName = async (name: string) =>
  (await http.get<DataBody<{ available: boolean }>>('/config/categories/check', { name }, { toast: false }))
    .data.available;

export const createApiUser = async (input: ApiUserInput & { name: string; emailType: ApiUserEmailType }) =>
  (await http.post<DataBody<IssuedKey>>('/config/categories', { ...input }, { ...json, toast: false })).data;

export const updateApiUser = async (id: number, input: ApiUserInput) =>
  (
    await http.patch<DataBody<ApiUserView>>(
      `/config/categories/${id}`,
      { ...input },
      { ...json, toast: false },
    )
  ).data;

export const deleteApiUser = (id: number) => http.delete(`/config/categories/${id}`);

export const resetApiKey = async (apiUserId: number, expiresInMinutes: ApiKeyGraceMinutes) =>
  (
    await http.post<DataBody<ReissuedKey>>(
      '/config/apikeys',
      { apiUserId, expiresInMinutes },
      { ...json, toast: false },
    )
  ).data;

export const fetchSender = async (kind: DefaultSenderPath) =>
  (await http.get<DataBody<ApiUserView | null>>(`/config/categories/${kind}`)).data;

export const saveSender = (kind: DefaultSenderPath, apiUserId: number | null) =>
  http.put(`/config/categories/${kind}`, { apiUserId }, json);
