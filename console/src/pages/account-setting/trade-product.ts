import { PRICE_CATALOGUE } from '@herald/shared/schemas/ledger.schema';

/** A price item's name in the console's language (the catalogue carries both). */
export function productLabel(code: string, language: string): string {
  const item = PRICE_CATALOGUE.find((p) => p.code === code);
  if (!item) return code;
  return language === 'en' ? item.en : item['zh-cn'];
}
