import type {
  AccountLimitsInput,
  AdminAccountsPage,
  AdminAccountView,
} from '@herald/shared/schemas/plan.schema';
import { http } from '../infra/http/http-client.ts';

/** The platform operators' plans and quotas (/admin/accounts). */
interface DataBody<T> {
  data: T;
}

export type { AdminAccountView };

const BASE = '/admin/accounts';

export const fetchAdminAccounts = async (query: { search: string; pageNum: number; pageSize: number }) =>
  (await http.get<DataBody<AdminAccountsPage>>(BASE, query)).data;

export const setAccountLimits = async (accountId: number, input: AccountLimitsInput) =>
  (
    await http.put<DataBody<AdminAccountView>>(
      `${BASE}/${accountId}/limits`,
      { ...input },
      { format: 'json' },
    )
  ).data;

export const grantQuotaRaise = async (accountId: number, extra: number) =>
  (
    await http.post<DataBody<AdminAccountView>>(
      `${BASE}/${accountId}/quota-raises`,
      { extra },
      { format: 'json' },
    )
  ).data;
