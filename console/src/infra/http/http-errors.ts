/**
 * What a failed call rejects with. A cancelled call (a newer identical GET replaced it, or the
 * caller aborted) rejects with `RequestCancelledError`, which nothing reports: the client shows
 * no toast for it and a window-level handler keeps it from becoming an unhandled rejection.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  readonly method: string;
  readonly url: string;
  /** The parsed answer, usually `{ code, message, error, fields?, requestId }`. */
  readonly body: unknown;

  constructor(status: number, method: string, url: string, body: unknown) {
    super(errorText(body) ?? `${method} ${url} answered ${status}`);
    this.status = status;
    this.method = method;
    this.url = url;
    this.body = body;
  }

  /** The server's error code, e.g. `AUTH_REQUIRED`, when it sent one. */
  get code(): string | undefined {
    const code = (this.body as { code?: unknown } | null)?.code;
    return typeof code === 'string' ? code : undefined;
  }
}

/** The network failed or the request timed out; `status` 0 in the sense of XHR. */
export class NetworkError extends Error {
  override name = 'NetworkError';
  readonly timedOut: boolean;
  constructor(message: string, timedOut: boolean, options?: ErrorOptions) {
    super(message, options);
    this.timedOut = timedOut;
  }
}

export class RequestCancelledError extends Error {
  override name = 'RequestCancelledError';
}

export function isCancelled(error: unknown): error is RequestCancelledError {
  return error instanceof RequestCancelledError;
}

/** The `error` field of an error answer (the message in the request's language), else `message`. */
export function errorText(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { error, message } = body as { error?: unknown; message?: unknown };
  if (typeof error === 'string' && error) return error;
  if (typeof message === 'string' && message) return message;
  return undefined;
}

/** Installs the window handler that swallows cancelled calls nobody awaited with a catch. */
export function swallowCancelledRejections(): void {
  window.addEventListener('unhandledrejection', (event) => {
    if (isCancelled(event.reason)) event.preventDefault();
  });
}
