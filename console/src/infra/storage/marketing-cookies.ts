import { readCookie, writeCookie } from './cookies.ts';

/**
 * Where a visitor came from, for sign-up attribution (console-spec §3, §9). Campaign parameters
 * of the landing URL become `sc_`-prefixed cookies, the search keyword `kw` becoming the
 * search-term cookie; the referrer cookie records the external site the visitor landed from,
 * or `none`. All last 90 days, except a `none` referrer, which lasts 1 day so a later visit from
 * a real source is not hidden for long. Runs once per page load, before the first render.
 */
export const MARKETING_PARAMS = [
  'source',
  'medium',
  'campaign',
  'plan',
  'unit',
  'content',
  'channel',
] as const;
export const MARKETING_PREFIX = 'sc_';
export const SEARCH_TERM_PARAM = 'kw';
export const SEARCH_TERM_COOKIE = 'sc_search_term';
export const REFERRER_COOKIE = 'sc_referrer';
export const NO_SOURCE = 'none';
export const MARKETING_DAYS = 90;
export const NO_SOURCE_DAYS = 1;

export interface MarketingCookie {
  name: string;
  value: string;
  days: number;
}

/** The cookies a landing URL and referrer call for; pure, so the rules can be read in one place. */
export function marketingCookies(
  search: string,
  referrer: string,
  ownHost: string,
  referrerCookie: string | null,
): MarketingCookie[] {
  const params = new URLSearchParams(search);
  const cookies: MarketingCookie[] = [];
  for (const name of MARKETING_PARAMS) {
    const value = params.get(name)?.trim();
    if (value) cookies.push({ name: MARKETING_PREFIX + name, value, days: MARKETING_DAYS });
  }
  const term = params.get(SEARCH_TERM_PARAM)?.trim();
  if (term) cookies.push({ name: SEARCH_TERM_COOKIE, value: term, days: MARKETING_DAYS });

  const source = externalHost(referrer, ownHost);
  if (source) cookies.push({ name: REFERRER_COOKIE, value: source, days: MARKETING_DAYS });
  else if (referrerCookie === null) {
    cookies.push({ name: REFERRER_COOKIE, value: NO_SOURCE, days: NO_SOURCE_DAYS });
  }
  return cookies;
}

function externalHost(referrer: string, ownHost: string): string | null {
  if (!referrer) return null;
  try {
    const host = new URL(referrer).host;
    return host && host !== ownHost ? host : null;
  } catch {
    return null;
  }
}

export function recordMarketingSource(): void {
  const cookies = marketingCookies(
    window.location.search,
    document.referrer,
    window.location.host,
    readCookie(REFERRER_COOKIE),
  );
  for (const cookie of cookies) writeCookie(cookie.name, cookie.value, { days: cookie.days });
}
