import { AppError, SEND_RECIPIENTS_MAX } from '@herald/shared';
import { checkAddresses } from './recipients.ts';

/**
 * SendCloud's X-SMTPAPI (reference §5): the same JSON over HTTP (`xsmtpapi`, plain) and SMTP
 * (`X-SMTPAPI`, base64). `to` makes every recipient an individual mail; `sub` holds one array
 * per variable, aligned with `to`; `section` and `pubsub` are shared blocks and variables;
 * `filters` override the API_USER's tracking switches; `settings.unsubscribe.page_id` picks the
 * unsubscribe page. What is validated here is what the delivery engine will rely on. A field
 * whose value is JSON null is absent (clients send every unset field as null), at the top and
 * inside `sub`, `section`, `pubsub` and `filters`; an object of nothing but nulls is no X-SMTPAPI.
 */
export interface Xsmtpapi {
  to?: string[];
  sub?: Record<string, (string | number)[]>;
  section?: Record<string, string>;
  pubsub?: Record<string, string | number>;
  filters?: Record<string, { settings?: Record<string, string | number> }>;
  settings?: Record<string, unknown>;
}

export const XSMTPAPI_MAX_BYTES = 1_048_576;
const FILTERS = new Set(['subscription_tracking', 'open_tracking', 'click_tracking']);

export function parseXsmtpapi(raw: string | undefined): Xsmtpapi | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (!text) throw new AppError('SEND_XSMTPAPI_EMPTY');
  if (Buffer.byteLength(text) > XSMTPAPI_MAX_BYTES) {
    throw new AppError('SEND_XSMTPAPI_INVALID', { reason: 'larger than 1 MB' });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('SEND_XSMTPAPI_PARSE');
  }
  if (isObject(value) && Object.keys(value).length > 0 && Object.values(value).every((v) => v === null)) {
    return undefined;
  }
  return validateXsmtpapi(value);
}

/** The SMTP form: the header's value is base64 of the JSON (undefined: nothing but nulls in it). */
export function parseXsmtpapiHeader(value: string): Xsmtpapi | undefined {
  const compact = value.replace(/\s+/g, '');
  if (!compact) throw new AppError('SEND_XSMTPAPI_EMPTY');
  // The JSON itself, unencoded: what some clients put there although SendCloud asks for base64.
  if (compact.startsWith('{')) return parseXsmtpapi(value.trim());
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) {
    throw new AppError('SEND_XSMTPAPI_INVALID', { reason: 'not base64' });
  }
  const json = Buffer.from(compact, 'base64').toString('utf8');
  if (!json.trim()) throw new AppError('SEND_XSMTPAPI_EMPTY');
  return parseXsmtpapi(json);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(reason: string): AppError {
  return new AppError('SEND_XSMTPAPI_INVALID', { reason });
}

/** The object without its null-valued fields. */
function present(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}

/** Drops null fields at the top and one level down in the maps, where clients put them. */
function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  const top = present(value);
  for (const key of ['sub', 'section', 'pubsub', 'filters'] as const) {
    const inner = top[key];
    if (isObject(inner)) top[key] = present(inner);
  }
  return top;
}

export function validateXsmtpapi(raw: unknown): Xsmtpapi {
  if (!isObject(raw) || Object.keys(raw).length === 0) throw new AppError('SEND_XSMTPAPI_NO_VALUE');
  const value = withoutNulls(raw);
  const result: Xsmtpapi = {};
  if (value.to !== undefined) {
    if (!Array.isArray(value.to) || !value.to.every((a) => typeof a === 'string')) {
      throw invalid('"to" must be an array of addresses');
    }
    if (value.to.length === 0) throw new AppError('SEND_XSMTPAPI_TO_EMPTY');
    if (value.to.length > SEND_RECIPIENTS_MAX) throw new AppError('SEND_XSMTPAPI_TO_TOO_MANY');
    result.to = checkAddresses(value.to as string[], SEND_RECIPIENTS_MAX, {
      invalid: 'SEND_TO_INVALID',
      tooMany: 'SEND_XSMTPAPI_TO_TOO_MANY',
    });
  }
  if (value.sub !== undefined) {
    if (!isObject(value.sub)) throw invalid('"sub" must be an object of arrays');
    const sub: Record<string, (string | number)[]> = {};
    for (const [name, values] of Object.entries(value.sub)) {
      if (!Array.isArray(values) || !values.every((v) => typeof v === 'string' || typeof v === 'number')) {
        throw invalid(`"sub.${name}" must be an array of strings or numbers`);
      }
      if (result.to && values.length !== result.to.length) {
        throw invalid(`"sub.${name}" has ${values.length} values for ${result.to.length} recipients`);
      }
      sub[name] = values as (string | number)[];
    }
    result.sub = sub;
  }
  if (value.section !== undefined) {
    if (!isObject(value.section) || !Object.values(value.section).every((v) => typeof v === 'string')) {
      throw invalid('"section" must be an object of strings');
    }
    result.section = value.section as Record<string, string>;
  }
  if (value.pubsub !== undefined) {
    if (
      !isObject(value.pubsub) ||
      !Object.values(value.pubsub).every((v) => typeof v === 'string' || typeof v === 'number')
    ) {
      throw invalid('"pubsub" must be an object of strings or numbers');
    }
    result.pubsub = value.pubsub as Record<string, string | number>;
  }
  if (value.filters !== undefined) {
    if (!isObject(value.filters)) throw invalid('"filters" must be an object');
    for (const [name, filter] of Object.entries(value.filters)) {
      if (!FILTERS.has(name)) throw invalid(`unknown filter "${name}"`);
      if (!isObject(filter) || (filter.settings !== undefined && !isObject(filter.settings))) {
        throw invalid(`"filters.${name}" must be {"settings": {"enable": "0" or "1"}}`);
      }
      const enable = (filter.settings as Record<string, unknown> | undefined)?.enable;
      if (enable !== undefined && !['0', '1', 0, 1].includes(enable as string | number)) {
        throw invalid(`"filters.${name}.settings.enable" must be 0 or 1`);
      }
    }
    result.filters = value.filters as Xsmtpapi['filters'];
  }
  if (value.settings !== undefined) {
    if (!isObject(value.settings)) throw invalid('"settings" must be an object');
    result.settings = value.settings;
  }
  return result;
}

/** One recipient's variables, `{"%name%": "Ben"}`, from the `sub` arrays at its index. */
export function varsAt(x: Xsmtpapi | undefined, index: number): Record<string, string | number> | null {
  if (!x?.sub) return null;
  const vars: Record<string, string | number> = {};
  for (const [name, values] of Object.entries(x.sub)) {
    const value = values[index];
    if (value !== undefined) vars[name] = value;
  }
  return Object.keys(vars).length > 0 ? vars : null;
}

/** What is stored for the delivery engine: everything but `to`, which became recipient rows. */
export function storedXsmtpapi(x: Xsmtpapi | undefined): string | null {
  if (!x) return null;
  const { to: _to, ...rest } = x;
  return Object.keys(rest).length > 0 ? JSON.stringify(rest) : null;
}
