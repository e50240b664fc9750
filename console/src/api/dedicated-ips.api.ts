import type {
  DedicatedIpCostView,
  DedicatedIpPurchaseInput,
  DedicatedIpStatus,
  DedicatedIpsPage,
  DedicatedIpView,
  IndependentIpInfo,
} from '@herald/shared/schemas/dedicated-ip.schema';
import { http } from '../infra/http/http-client.ts';

/**
 * Dedicated IPs (console-spec §7 `/ipResources/*`, `/config/independentIpInfo`): the account's
 * purchases with the A record each needs, the cost of a purchase, buying addresses for a domain,
 * and the addresses per sending domain.
 */
export type { DedicatedIpCostView, DedicatedIpStatus, DedicatedIpsPage, DedicatedIpView, IndependentIpInfo };

interface DataBody<T> {
  data: T;
}

export const fetchDedicatedIps = async () =>
  (await http.get<DataBody<DedicatedIpsPage>>('/ipResources')).data;

export const fetchDedicatedIpCost = async (count: number, months: number) =>
  (await http.get<DataBody<DedicatedIpCostView>>('/ipResources/cost', { count, months })).data;

/** Buys the addresses; answers one purchase per address. */
export const buyDedicatedIps = async (input: DedicatedIpPurchaseInput) =>
  (await http.post<DataBody<DedicatedIpView[]>>('/ipResources', input, { format: 'json' })).data;

export const fetchIndependentIpInfo = async () =>
  (await http.get<DataBody<IndependentIpInfo>>('/config/independentIpInfo')).data;
