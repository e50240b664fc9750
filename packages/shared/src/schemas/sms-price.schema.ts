import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';

/**
 * International SMS prices and sender rules per country (product-spec §1, §9: 223 countries and
 * regions, a price query for up to 5 at once). The operator keeps them; the public price query
 * and (with the Money issue) charging read the same table. Prices are in thousandths of a yuan
 * (li) per billed part, so 0.35 yuan is 350.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const SMS_PRICE_QUERY_MAX = 5;
export const SMS_SENDER_RULES = ['any', 'numeric', 'alphanumeric'] as const;
export type SmsSenderRule = (typeof SMS_SENDER_RULES)[number];

const country = z
  .string(rule('smsCountryCode'))
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, rule('smsCountryCode'));

/** `?countries=US,GB,JP`: one to five ISO 3166 codes. */
export const smsPriceQuerySchema = z.object({
  countries: z
    .string(rule('smsPriceCountries'))
    .transform((v) => [
      ...new Set(
        v
          .split(/[,;\s]+/)
          .filter(Boolean)
          .map((c) => c.toUpperCase()),
      ),
    ])
    .pipe(
      z.array(country).min(1, rule('smsPriceCountries')).max(SMS_PRICE_QUERY_MAX, rule('smsPriceCountries')),
    ),
});

export const smsPriceInputSchema = z.object({
  country,
  priceMilli: z.coerce
    .number(rule('invalid'))
    .int(rule('invalid'))
    .min(0, rule('invalid'))
    .max(1_000_000, rule('invalid')),
  senderRule: z.enum(SMS_SENDER_RULES, rule('invalid')).default('any'),
  /** The alphanumeric sender id used where the country allows one (at most 11 letters or digits). */
  senderId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9 ]{1,11}$/, rule('smsSenderId'))
    .nullable()
    .default(null),
});
export type SmsPriceInput = z.input<typeof smsPriceInputSchema>;

export interface SmsCountryView {
  country: string;
  name: string;
  dialCode: string;
}

export interface SmsPriceView extends SmsCountryView {
  /** null when Herald does not send there (no price kept). */
  priceMilli: number | null;
  /** Yuan per part, as shown: "0.350". */
  price: string | null;
  senderRule: SmsSenderRule | null;
  senderId: string | null;
}
