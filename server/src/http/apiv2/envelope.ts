import type { AppError } from '@herald/shared';
import { ERRORS, formatMessage, isValidationKey, type Lang, validationMessage } from '@herald/shared';

/**
 * SendCloud's response envelope (reference §1): `{result, statusCode, message, info}`. It is the
 * one place Herald answers HTTP 200 for a failure, because SendCloud's clients read `result` and
 * `statusCode`, not the HTTP status.
 */
export interface Envelope {
  result: boolean;
  statusCode: number;
  message: string;
  info: Record<string, unknown>;
}

const SUCCESS: Record<Lang, string> = { 'zh-cn': '请求成功', en: 'success' };

/** Successes SendCloud answers with a code of their own (reference §1, §3). */
const SUCCESS_CODES = {
  40821: { 'zh-cn': '地址列表任务创建成功', en: 'The address list task was created' },
} as const satisfies Record<number, Record<Lang, string>>;

/** The key a handler's info carries a success code under (not part of the JSON answer). */
const SUCCESS_CODE = Symbol('successCode');

/** A handler's info answered with one of SendCloud's own success codes instead of 200. */
export function withSuccessCode(
  code: keyof typeof SUCCESS_CODES,
  info: Record<string, unknown>,
): Record<string, unknown> {
  return { ...info, [SUCCESS_CODE]: code };
}

export function ok(lang: Lang, info: Record<string | symbol, unknown> = {}): Envelope {
  const code = info[SUCCESS_CODE] as keyof typeof SUCCESS_CODES | undefined;
  if (code === undefined) return { result: true, statusCode: 200, message: SUCCESS[lang], info };
  const { [SUCCESS_CODE]: _code, ...rest } = info;
  return { result: true, statusCode: code, message: SUCCESS_CODES[code][lang], info: rest };
}

/**
 * A code without a documented SendCloud number answers with the nearest general one: a bad
 * parameter or a missing object keeps its HTTP status (400, 404), a body of a type the API cannot
 * read is a bad parameter too (400: its parameters never arrived), too many calls is Aurora's
 * 50000 "interface frequency limited", no permission is 6001, and a bug is 501.
 */
export function sendCloudCode(error: AppError): number {
  const definition = ERRORS[error.code] as { status: number; sendCloud?: number };
  if (definition.sendCloud !== undefined) return definition.sendCloud;
  if (definition.status === 415) return 400;
  if (definition.status === 429) return 50000;
  if (definition.status === 403) return 6001;
  if (definition.status >= 500) return 501;
  return definition.status;
}

export function failure(error: AppError, lang: Lang): Envelope {
  let message = formatMessage(error.code, lang, error.params);
  if (error.fields.length > 0) {
    const text = (m: string) => (isValidationKey(m) ? validationMessage(m, lang) : m);
    message += `: ${error.fields.map((f) => (f.field ? `${f.field} ${text(f.message)}` : text(f.message))).join('; ')}`;
  }
  return { result: false, statusCode: sendCloudCode(error), message, info: {} };
}
