import {
  AppError,
  dialCode,
  type Lang,
  phoneRegions,
  type SmsCountryView,
  type SmsPriceInput,
  type SmsPriceView,
  type SmsSenderRule,
  smsPriceInputSchema,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { CountrySender, SenderRules } from '../../sms/ports.ts';
import * as repo from './sms-prices.repo.ts';

const CACHE_MS = 5_000;
const NAMES: Record<Lang, Intl.DisplayNames> = {
  'zh-cn': new Intl.DisplayNames(['zh-CN'], { type: 'region' }),
  en: new Intl.DisplayNames(['en'], { type: 'region' }),
};

/** Every country and region a mobile number can belong to, outside mainland China. */
const COUNTRIES = phoneRegions().filter((c) => c !== 'CN');

function country(code: string, lang: Lang): SmsCountryView {
  return { country: code, name: NAMES[lang].of(code) ?? code, dialCode: dialCode(code) };
}

const yuan = (milli: number) => (milli / 1000).toFixed(3);

/**
 * International SMS prices and sender rules (issue 17), kept by the operator (CLI): a price per
 * billed part and the sender id each country takes. The price query answers up to five countries
 * at once in the reader's language; the SMS channel asks the sender rule through `SenderRules`.
 */
export class SmsPricesService implements SenderRules {
  private readonly database: Database;
  private readonly now: () => number;
  private rules: { at: number; byCountry: Map<string, CountrySender> } | undefined;

  constructor(database: Database, now: () => number = Date.now) {
    this.database = database;
    this.now = now;
  }

  countries(lang: Lang): SmsCountryView[] {
    return COUNTRIES.map((c) => country(c, lang)).sort((a, b) => a.name.localeCompare(b.name, lang));
  }

  /** The price of each country asked for (at most five), null where Herald does not send. */
  async query(countries: string[], lang: Lang): Promise<SmsPriceView[]> {
    const unknown = countries.find((c) => !COUNTRIES.includes(c));
    if (unknown) throw new AppError('SMS_COUNTRY_UNKNOWN', { country: unknown });
    const rows = new Map((await repo.listPrices(this.database, countries)).map((r) => [r.country, r]));
    return countries.map((code) => {
      const row = rows.get(code);
      return {
        ...country(code, lang),
        priceMilli: row ? Number(row.price_milli) : null,
        price: row ? yuan(Number(row.price_milli)) : null,
        senderRule: row ? (row.sender_rule as SmsSenderRule) : null,
        senderId: row?.sender_id ?? null,
      };
    });
  }

  /** Every priced country (the operator's list). */
  async list(lang: Lang = 'en'): Promise<SmsPriceView[]> {
    const rows = await repo.listPrices(this.database);
    return this.query(
      rows.map((r) => r.country),
      lang,
    );
  }

  async set(input: SmsPriceInput): Promise<SmsPriceView> {
    const value = smsPriceInputSchema.parse(input);
    if (!COUNTRIES.includes(value.country))
      throw new AppError('SMS_COUNTRY_UNKNOWN', { country: value.country });
    if (value.senderRule === 'alphanumeric' && !value.senderId) throw new AppError('SMS_SENDER_ID_REQUIRED');
    await repo.savePrice(this.database, {
      country: value.country,
      price_milli: value.priceMilli,
      sender_rule: value.senderRule,
      sender_id: value.senderId,
      updated_at: this.now(),
    });
    this.rules = undefined;
    return (await this.query([value.country], 'en'))[0] as SmsPriceView;
  }

  async remove(code: string): Promise<void> {
    if (!(await repo.deletePrice(this.database, code.toUpperCase()))) {
      throw new AppError('SMS_COUNTRY_UNKNOWN', { country: code });
    }
    this.rules = undefined;
  }

  async of(code: string): Promise<CountrySender | undefined> {
    const now = this.now();
    if (!this.rules || now - this.rules.at > CACHE_MS) {
      const rows = await repo.listPrices(this.database);
      this.rules = {
        at: now,
        byCountry: new Map(
          rows.map((r) => [r.country, { rule: r.sender_rule as SmsSenderRule, senderId: r.sender_id }]),
        ),
      };
    }
    return this.rules.byCountry.get(code);
  }
}
