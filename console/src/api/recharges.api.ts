import type { BalancePoint } from '@herald/shared/schemas/ledger.schema';
import type {
  RechargeMethod,
  RechargeOptionsView,
  RechargeOrdersPage,
  RechargeOrderView,
  RechargeStartView,
  RechargeStatus,
} from '@herald/shared/schemas/recharge.schema';
import { http } from '../infra/http/http-client.ts';

/**
 * Recharges (console-spec §7 `/user/pay`, `/alipay/pay`, `/paypal/pay`, `/user/orders`): what the
 * charge screen offers, placing an order (answered with the payment page), the account's orders,
 * the result screen's check of one, and the balance of the last 30 days.
 */
export type { BalancePoint, RechargeMethod, RechargeOptionsView, RechargeOrderView, RechargeStatus };

interface DataBody<T> {
  data: T;
}

export const fetchRechargeOptions = async () =>
  (await http.get<DataBody<RechargeOptionsView>>('/user/pay')).data;

/** Places an order; the browser then goes to the answer's payUrl. */
export const startRecharge = async (method: RechargeMethod, amount: string) =>
  (await http.post<DataBody<RechargeStartView>>(`/${method}/pay`, { amount }, { format: 'json' })).data;

export const fetchRechargeOrders = async (query: {
  pageNum: number;
  pageSize: number;
  status?: RechargeStatus;
}) => (await http.get<DataBody<RechargeOrdersPage>>('/user/orders', query)).data;

export const fetchRechargeOrder = async (orderNo: string) =>
  (await http.get<DataBody<RechargeOrderView>>(`/user/orders/${encodeURIComponent(orderNo)}`)).data;

/** Asks the provider at once whether a pending order was paid (silent: the screen shows the state). */
export const checkRechargeOrder = async (orderNo: string) =>
  (
    await http.post<DataBody<RechargeOrderView>>(
      `/user/orders/${encodeURIComponent(orderNo)}/check`,
      {},
      { format: 'json', toast: false },
    )
  ).data;

export const fetchBalanceHistory = async () =>
  (await http.get<DataBody<BalancePoint[]>>('/user/balanceHistory')).data;
