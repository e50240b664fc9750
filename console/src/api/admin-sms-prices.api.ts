import type { SmsPriceView, SmsSenderRule } from '@herald/shared/schemas/sms-price.schema';
import { http } from '../infra/http/http-client.ts';

/** The operators' international SMS prices (`/admin/smsPrices`). */
export type { SmsPriceView, SmsSenderRule };

export const fetchAdminSmsPrices = async () =>
  (await http.get<{ data: SmsPriceView[] }>('/admin/smsPrices')).data;

export const saveAdminSmsPrice = async (input: {
  country: string;
  priceMilli: number;
  senderRule: SmsSenderRule;
  senderId: string | null;
}) =>
  (
    await http.put<{ data: SmsPriceView }>(
      `/admin/smsPrices/${input.country}`,
      { priceMilli: input.priceMilli, senderRule: input.senderRule, senderId: input.senderId },
      { format: 'json' },
    )
  ).data;

export const removeAdminSmsPrice = (country: string) => http.delete(`/admin/smsPrices/${country}`);
