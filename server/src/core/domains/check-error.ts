import { type DnsCheckError, ERRORS, type ErrorParams, formatMessage } from '@herald/shared';

/**
 * A DNS check's problem is kept in the `<kind>_error` column as a small JSON object, `{code,
 * params}`, so each reader can say it in their own language. Rows checked before the codes existed
 * hold an English sentence; it stays as it is until the next check replaces it.
 */
export function encodeCheckError(error: DnsCheckError | null): string | null {
  return error === null ? null : JSON.stringify({ code: error.code, params: error.params });
}

export interface CheckErrorView {
  /** English text, for API clients and old rows. */
  error: string | null;
  errorCode: DnsCheckError['code'] | null;
  errorParams: ErrorParams | null;
}

export function decodeCheckError(stored: string | null): CheckErrorView {
  if (stored === null || stored === '') return { error: null, errorCode: null, errorParams: null };
  const coded = parse(stored);
  if (coded === null) return { error: stored, errorCode: null, errorParams: null };
  return {
    error: formatMessage(coded.code, 'en', coded.params),
    errorCode: coded.code,
    errorParams: coded.params,
  };
}

function parse(stored: string): DnsCheckError | null {
  if (!stored.startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return null;
  }
  const { code, params } = (value ?? {}) as { code?: unknown; params?: unknown };
  if (typeof code !== 'string' || !isCheckCode(code)) return null;
  if (typeof params !== 'object' || params === null) return null;
  const clean: ErrorParams = {};
  for (const [key, v] of Object.entries(params)) {
    if (typeof v === 'string' || typeof v === 'number') clean[key] = v;
  }
  return { code, params: clean };
}

const isCheckCode = (code: string): code is DnsCheckError['code'] =>
  Object.hasOwn(ERRORS, code) && (code.startsWith('DNS_CHECK_') || code === 'DOMAIN_PLATFORM_HOST_UNSET');
