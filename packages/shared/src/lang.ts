/** The two interface languages. zh-cn is the default everywhere (console-spec §1, §4). */
export const LANGS = ['zh-cn', 'en'] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'zh-cn';

/**
 * Maps whatever a caller sent (a `lang` query value, a cookie, an Accept-Language header)
 * to one of the supported languages. Anything English-like is `en`; everything else,
 * including nothing at all, is the default.
 */
export function resolveLang(input: string | null | undefined): Lang {
  if (!input) return DEFAULT_LANG;
  const first = input.split(',')[0]?.trim().toLowerCase() ?? '';
  if (first.startsWith('en')) return 'en';
  return DEFAULT_LANG;
}
