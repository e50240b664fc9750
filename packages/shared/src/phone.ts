import { getCountries, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/mobile';

/** A mobile number as Herald keeps it: E.164, its country and its national significant number. */
export interface ParsedPhone {
  e164: string;
  /** ISO 3166 alpha-2. */
  country: string;
  national: string;
}

/**
 * Reads one mobile number as a caller wrote it (spaces, dashes and brackets ignored). A number
 * without a country code is read as mainland Chinese unless `defaultCountry` says otherwise;
 * `00` counts as the international prefix. Only numbers valid as mobile numbers for their country
 * (libphonenumber's metadata) come back; anything else is null.
 */
export function parseMobile(input: string, defaultCountry: 'CN' | undefined = 'CN'): ParsedPhone | null {
  const trimmed = input.trim().replace(/^00/, '+');
  if (!/^\+?[\d\s\-()]{5,24}$/.test(trimmed)) return null;
  const parsed = parsePhoneNumberFromString(trimmed, defaultCountry);
  if (!parsed?.isValid() || !parsed.country) return null;
  return { e164: parsed.number, country: parsed.country, national: parsed.nationalNumber };
}

/** Every country and region numbers can belong to (ISO 3166 alpha-2), as the phone metadata knows them. */
export function phoneRegions(): string[] {
  return getCountries();
}

/** The international dialling code of a region, with its plus: CN → +86. */
export function dialCode(region: string): string {
  return `+${getCountryCallingCode(region as 'CN')}`;
}
