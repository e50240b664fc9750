import {
  getCountries,
  getCountryCallingCode,
  Metadata,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/mobile';

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
  const plain = plainMainlandMobile(trimmed, defaultCountry);
  if (plain !== undefined) return plain;
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

/**
 * The fast path of parseMobile for the commonest input by far, a plain mainland mobile
 * (`13800138000` or `+8613800138000`): about 30 times cheaper than the full parse, which a
 * contact-list import of a million numbers would otherwise spend most of its time in. It answers
 * from the same metadata's mainland mobile rule, so it agrees with the full parse (a test holds
 * the two together); undefined means "not that shape, ask the full parse".
 */
const PLAIN_MAINLAND = /^(?:\+86)?(1\d{10})$/;
const MAINLAND_MOBILE = mainlandMobileRule();

function plainMainlandMobile(text: string, defaultCountry: 'CN' | undefined): ParsedPhone | null | undefined {
  if (!MAINLAND_MOBILE) return undefined;
  const match = PLAIN_MAINLAND.exec(text);
  if (!match || (defaultCountry !== 'CN' && text[0] !== '+')) return undefined;
  const national = match[1] as string;
  return MAINLAND_MOBILE(national) ? { e164: `+86${national}`, country: 'CN', national } : null;
}

/** The mainland's mobile number rule in the metadata; null (no fast path) if the metadata changes shape. */
function mainlandMobileRule(): ((national: string) => boolean) | null {
  try {
    const metadata = new Metadata() as unknown as {
      selectNumberingPlan(country: string): void;
      numberingPlan?: {
        nationalNumberPattern(): string;
        type(name: string): { pattern(): string; possibleLengths(): number[] | undefined } | undefined;
      };
    };
    metadata.selectNumberingPlan('CN');
    const plan = metadata.numberingPlan;
    const mobile = plan?.type('MOBILE');
    if (!plan || !mobile) return null;
    const general = new RegExp(`^(?:${plan.nationalNumberPattern()})$`);
    const rule = new RegExp(`^(?:${mobile.pattern()})$`);
    return (national) => general.test(national) && rule.test(national);
  } catch {
    return null;
  }
}
