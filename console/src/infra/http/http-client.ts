import i18next from 'i18next';
import { httpEffects } from './http-effects.ts';
import { errorText, HttpError, NetworkError, RequestCancelledError } from './http-errors.ts';
import {
  DEDUPED_GET_FRAGMENTS,
  ERROR_TOAST_SECONDS,
  matchesAny,
  REQUEST_TIMEOUT_MS,
} from './http-exceptions.ts';
import {
  cleanParams,
  type Params,
  resolveUrl,
  toFormData,
  toSearchParams,
  withQuery,
} from './request-params.ts';
import { statusEffects } from './status-policy.ts';

/**
 * The console's one HTTP client (console-spec §7 General, §8). Every call gets the base
 * (`/v3/api`, or `/v3` for oauth/access/static/loginVerify URLs), the cookies (among them the
 * httpOnly session token, which stands in for console-spec's `Authorization: <tokenType> <token>`
 * header: no script here can read it), a 300 s timeout and the `lang` header; bodies are
 * form-encoded unless JSON or multipart is asked for; empty parameters are dropped. Answers go
 * through the status policy (status-policy.ts) for toasts, /login and /activate.
 *
 * Built on fetch: AbortSignal gives the timeout and the cancellation of a repeated data GET, and
 * the only thing axios would add here is weight.
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type BodyFormat = 'form' | 'json' | 'multipart';

export interface RequestOptions {
  /** Query parameters for GET and DELETE; the body for POST, PUT and PATCH. */
  params?: Params | FormData;
  /** Query parameters of a POST, PUT or PATCH. */
  query?: Params;
  /** Body encoding of a POST, PUT or PATCH; default form-encoded. */
  format?: BodyFormat;
  signal?: AbortSignal;
  /** `false`: no toast for this call (state loads whose failure is swallowed, §8 "Other"). */
  toast?: boolean;
  /** No status handling at all (no toast, no navigation): logout, whose token may be dead already. */
  quiet?: boolean;
  timeoutMs?: number;
}

const pendingGets = new Map<string, AbortController>();

function headersFor(format: BodyFormat | undefined, hasBody: boolean): Headers {
  const headers = new Headers({
    accept: 'application/json',
    lang: i18next.language === 'en' ? 'en' : 'zh-cn',
  });
  if (hasBody && format === 'json') headers.set('content-type', 'application/json');
  if (hasBody && (format ?? 'form') === 'form') {
    headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
  }
  return headers;
}

function bodyFor(method: Method, options: RequestOptions): BodyInit | undefined {
  if (method === 'GET' || method === 'DELETE') return undefined;
  const { params, format = 'form' } = options;
  if (params instanceof FormData) return params;
  if (format === 'multipart') return toFormData(params ?? {});
  if (format === 'json') return JSON.stringify(cleanParams(params));
  return toSearchParams(params ?? {});
}

async function parseBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function apply(status: number, method: Method, url: string, body: unknown, options: RequestOptions): void {
  if (options.quiet) return;
  const effects = statusEffects(status, method, url, errorText(body));
  const bridge = httpEffects();
  if (effects.toast && options.toast !== false) {
    const { message, level, seconds } = effects.toast;
    bridge.toast(level, 'text' in message ? message.text : i18next.t(message.key), seconds);
  }
  if (effects.navigate) bridge.navigate(effects.navigate);
  if (effects.logout) void bridge.logout();
}

export async function request<T = unknown>(
  method: Method,
  url: string,
  options: RequestOptions = {},
): Promise<T> {
  const query = method === 'GET' || method === 'DELETE' ? options.params : options.query;
  const target = withQuery(resolveUrl(url), query instanceof FormData ? undefined : query);
  const hasBody = method !== 'GET' && method !== 'DELETE';

  const signals: AbortSignal[] = [AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS)];
  if (options.signal) signals.push(options.signal);
  const dedupeKey = method === 'GET' && matchesAny(url, DEDUPED_GET_FRAGMENTS) ? resolveUrl(url) : undefined;
  let own: AbortController | undefined;
  if (dedupeKey) {
    pendingGets.get(dedupeKey)?.abort(new RequestCancelledError(`${method} ${url} was repeated`));
    own = new AbortController();
    pendingGets.set(dedupeKey, own);
    signals.push(own.signal);
  }
  const signal = AbortSignal.any(signals);

  try {
    let response: Response;
    try {
      response = await fetch(target, {
        method,
        credentials: 'include',
        headers: headersFor(options.format, hasBody),
        body: bodyFor(method, options),
        signal,
      });
    } catch (error) {
      throw failedFetch(error, signal, url, options);
    }
    let body: unknown;
    try {
      body = await parseBody(response);
    } catch (error) {
      throw failedFetch(error, signal, url, options);
    }
    apply(response.status, method, url, body, options);
    if (!response.ok) throw new HttpError(response.status, method, url, body);
    return body as T;
  } finally {
    if (dedupeKey && pendingGets.get(dedupeKey) === own) pendingGets.delete(dedupeKey);
  }
}

function failedFetch(error: unknown, signal: AbortSignal, url: string, options: RequestOptions): Error {
  const reason: unknown = signal.aborted ? signal.reason : undefined;
  if (reason instanceof RequestCancelledError) return reason;
  const timedOut = reason instanceof DOMException && reason.name === 'TimeoutError';
  if (signal.aborted && !timedOut) return new RequestCancelledError(`${url} was aborted`, { cause: reason });
  if (!options.quiet && options.toast !== false) {
    httpEffects().toast(
      'error',
      i18next.t(timedOut ? 'http.timedOut' : 'http.networkError'),
      ERROR_TOAST_SECONDS,
    );
  }
  return new NetworkError(timedOut ? `${url} timed out` : `${url} could not be reached`, timedOut, {
    cause: error,
  });
}

type Shortcut = <T = unknown>(
  url: string,
  params?: Params | FormData,
  options?: RequestOptions,
) => Promise<T>;

const shortcut =
  (method: Method): Shortcut =>
  (url, params, options) =>
    request(method, url, { ...options, params: params ?? options?.params });

export const http = {
  request,
  get: shortcut('GET'),
  post: shortcut('POST'),
  put: shortcut('PUT'),
  patch: shortcut('PATCH'),
  delete: shortcut('DELETE'),
};
