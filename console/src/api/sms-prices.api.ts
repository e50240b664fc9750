import type { SmsCountryView, SmsPriceView } from '@herald/shared/schemas/sms-price.schema';
import { http } from '../infra/http/http-client.ts';

/** International SMS prices, public (calls `/public/smsCountries`, `/public/smsPrices`). */
export type { SmsCountryView, SmsPriceView };

export const fetchSmsCountries = async (lang: string) =>
  (await http.get<{ data: SmsCountryView[] }>('/public/smsCountries', { lang })).data;

export const fetchSmsPrices = async (countries: string[], lang: string) =>
  (await http.get<{ data: SmsPriceView[] }>('/public/smsPrices', { countries: countries.join(','), lang }))
    .data;
