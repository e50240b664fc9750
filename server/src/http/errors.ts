import {
  AppError,
  ERRORS,
  type ErrorCode,
  type FieldError,
  formatMessage,
  isValidationKey,
  type Lang,
  validationMessage,
} from '@herald/shared';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';

/**
 * The console API's one error mapper: whatever was thrown becomes a status from console-spec §8
 * and a JSON body the console can show as is: `{ code, message, error, fields?, requestId }`
 * (`error` repeats the message because the console reads that field). Bad input is a 4xx with
 * the caller's language; only a bug is a 500, and its details stay in the log.
 */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  error: string;
  /** Per-field problems; `rule` is the shared rule key when the problem is one of ours. */
  fields?: (FieldError & { rule?: string })[];
  requestId: string;
}

/** `request`, when given, names the content type a 415 refused (Fastify's error does not). */
export function toAppError(error: unknown, request?: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) return new AppError('COMMON_VALIDATION_FAILED', {}, zodFields(error));
  const fastifyError = error as Partial<FastifyError>;
  if (fastifyError.validation) {
    const fields = fastifyError.validation.map((v) => ({
      field: (v.instancePath || String(v.params?.missingProperty ?? ''))
        .replace(/^\//, '')
        .replace(/\//g, '.'),
      message: v.message ?? 'invalid',
    }));
    return new AppError('COMMON_VALIDATION_FAILED', {}, fields);
  }
  const status = fastifyError.statusCode ?? (isMultipartParseError(error) ? 400 : 500);
  if (status === 413) return new AppError('COMMON_PAYLOAD_TOO_LARGE');
  if (status === 415)
    return new AppError('COMMON_UNSUPPORTED_MEDIA_TYPE', { contentType: contentTypeOf(request) });
  if (status === 429) return new AppError('COMMON_RATE_LIMITED');
  if (status === 404) return new AppError('COMMON_ROUTE_NOT_FOUND');
  if (status >= 400 && status < 500) {
    return new AppError('COMMON_MALFORMED_BODY', { detail: fastifyError.message ?? 'bad request' });
  }
  return new AppError('COMMON_INTERNAL');
}

/**
 * The multipart parser (busboy, under @fastify/multipart) throws plain errors without a status for
 * a body that breaks off or has no valid boundary or part header: the client's fault, not a bug.
 */
function isMultipartParseError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /multipart|boundary|part header/i.test(error.message) && /busboy|dicer/i.test(error.stack ?? '');
}

export function errorBody(error: AppError, lang: Lang, requestId: string): ErrorBody {
  const message = formatMessage(error.code, lang, error.params);
  const body: ErrorBody = { code: error.code, message, error: message, requestId };
  if (error.fields.length > 0) {
    body.fields = error.fields.map(({ field, message }) =>
      isValidationKey(message)
        ? { field, message: validationMessage(message, lang), rule: message }
        : { field, message },
    );
  }
  return body;
}

export function sendError(request: FastifyRequest, reply: FastifyReply, thrown: unknown) {
  const error = toAppError(thrown, request);
  if (ERRORS[error.code].status >= 500) {
    request.log.error({ err: thrown }, 'request failed');
  } else {
    request.log.info({ code: error.code, status: error.status }, 'request rejected');
  }
  return reply.status(error.status).send(errorBody(error, request.lang, String(request.id)));
}

function zodFields(error: ZodError): FieldError[] {
  return error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
}

function contentTypeOf(request: FastifyRequest | undefined): string {
  const type = request?.headers['content-type']?.split(';')[0]?.trim();
  return type ? type.slice(0, 100) : 'unknown';
}
