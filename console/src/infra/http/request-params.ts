import { matchesAny, V3_BASE_FRAGMENTS } from './http-exceptions.ts';

/**
 * Pure helpers of the HTTP client: which base a URL gets and how parameters are cleaned and
 * encoded. Kept apart from the fetch machinery so the rules can be tested in Node.
 *
 * "Empty or falsy" parameters are dropped before every request (console-spec §5, §7):
 * `undefined`, `null`, `''` (also whitespace only), `NaN` and empty arrays. `0` and `false` are
 * kept: they are real values in this API (page 0, a switch turned off, ipWhitelistSwitch=0) and
 * dropping them would make "turn it off" impossible to send.
 */
export type Params = Record<string, unknown>;

export const API_BASE = '/v3/api';
export const V3_BASE = '/v3';

export function resolveUrl(url: string): string {
  if (/^https?:\/\//.test(url) || url.startsWith(`${V3_BASE}/`)) return url;
  const path = url.startsWith('/') ? url : `/${url}`;
  return (matchesAny(path, V3_BASE_FRAGMENTS) ? V3_BASE : API_BASE) + path;
}

export function isEmptyParam(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (typeof value === 'number') return Number.isNaN(value);
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

export function cleanParams(params: Params | undefined): Params {
  const clean: Params = {};
  if (!params) return clean;
  for (const [key, value] of Object.entries(params)) {
    if (!isEmptyParam(value)) clean[key] = value;
  }
  return clean;
}

function scalar(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/** Query string or form body: arrays repeat their key, objects travel as JSON. */
export function toSearchParams(params: Params): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(cleanParams(params))) {
    if (Array.isArray(value)) {
      for (const item of value) if (!isEmptyParam(item)) search.append(key, scalar(item));
    } else {
      search.append(key, scalar(value));
    }
  }
  return search;
}

export function toFormData(params: Params): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(cleanParams(params))) {
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (item instanceof Blob) form.append(key, item);
      else if (!isEmptyParam(item)) form.append(key, scalar(item));
    }
  }
  return form;
}

export function withQuery(url: string, params: Params | undefined): string {
  const query = toSearchParams(params ?? {}).toString();
  if (!query) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}
