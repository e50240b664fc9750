import {
  ERROR_TOAST_SECONDS,
  matchesAny,
  SILENT_BAD_REQUEST,
  SILENT_CREATED,
  SILENT_FORBIDDEN,
  SILENT_NO_CONTENT,
  SILENT_OTHER,
  SILENT_UNPROCESSABLE,
  SUCCESS_TOAST_SECONDS,
} from './http-exceptions.ts';

/**
 * What the console does with an answer's status (console-spec §8), as a pure function of the
 * status, method, URL and the server's `error` text. The HTTP client carries the effects out;
 * keeping the decision here makes the whole table readable and testable in one place.
 */
export type FixedText = 'http.operationSucceeded' | 'http.deletionSucceeded' | 'http.error';

export interface ToastEffect {
  level: 'success' | 'error';
  /** The server's text, shown as is, or a fixed text to translate. */
  message: { text: string } | { key: FixedText };
  seconds: number;
}

export interface StatusEffects {
  toast?: ToastEffect;
  navigate?: '/login' | '/activate';
  /** Log out after navigating (401). */
  logout?: boolean;
}

const success = (key: FixedText): StatusEffects => ({
  toast: { level: 'success', message: { key }, seconds: SUCCESS_TOAST_SECONDS },
});

const failure = (errorText: string | undefined): StatusEffects => ({
  toast: {
    level: 'error',
    message: errorText ? { text: errorText } : { key: 'http.error' },
    seconds: ERROR_TOAST_SECONDS,
  },
});

const NONE: StatusEffects = {};

export function statusEffects(
  status: number,
  method: string,
  url: string,
  errorText: string | undefined,
): StatusEffects {
  switch (status) {
    case 201:
      return matchesAny(url, SILENT_CREATED) ? NONE : success('http.operationSucceeded');
    case 204:
      return matchesAny(url, SILENT_NO_CONTENT) ? NONE : success('http.deletionSucceeded');
    case 400:
      return matchesAny(url, SILENT_BAD_REQUEST) ? NONE : failure(errorText);
    case 401:
      return { navigate: '/login', logout: true };
    case 403:
      return method.toUpperCase() === 'GET' || matchesAny(url, SILENT_FORBIDDEN) ? NONE : failure(errorText);
    case 410:
      return failure(errorText);
    case 422:
      return matchesAny(url, SILENT_UNPROCESSABLE) ? NONE : failure(errorText);
    case 428:
      return { navigate: '/activate' };
    default:
      if (status >= 200 && status < 400) return NONE;
      return matchesAny(url, SILENT_OTHER) ? NONE : failure(errorText);
  }
}
