import { AppError, type ErrorCode, isValidationKey, type Lang } from '@herald/shared';
import { z } from 'zod';

/**
 * What each /apiv2 action declares about itself: its parameters as one zod object, which the
 * action wrapper validates every call with before the handler runs, and which the OpenAPI
 * generator (http/docs/openapi.ts) documents; so the documentation is the validator and cannot
 * drift from it. Descriptions are in both languages, in a registry of their own (`fieldDocs`),
 * never in zod's global one.
 *
 * A parameter's schema is no stricter than the handler's own rule: the handler keeps the checks
 * whose order and codes SendCloud's clients read (mail/send's 408xx), and the schema names those
 * codes (`required`, `invalid`, `codes`) so the documentation lists them and a schema issue on
 * the field answers the same code.
 */
export type Text = Record<Lang, string>;

export const t = (zh: string, en: string): Text => ({ 'zh-cn': zh, en });

export interface FieldDoc {
  description: Text;
  /** Documented as required; a code is the one answered when it is missing (by schema or handler). */
  required?: true | ErrorCode;
  /** The code answered when the value breaks the field's rule; without, COMMON_VALIDATION_FAILED. */
  invalid?: ErrorCode;
  /** Further codes the handler answers for this field (documented). */
  codes?: ErrorCode[];
}

export const fieldDocs = z.registry<FieldDoc>();

/** Describes a schema (a parameter, or a field of an answer) in both languages. */
export function doc<T extends z.ZodType>(
  schema: T,
  description: Text,
  extra: Omit<FieldDoc, 'description'> = {},
): T {
  // A copy, so a shared schema (the console's too) is described here without being changed.
  const copy = schema.clone() as T;
  fieldDocs.add(copy, { description, ...extra });
  return copy;
}

export type ParamSchema = z.ZodObject<Record<string, z.ZodType>>;

export interface ActionDocs {
  summary: Text;
  description?: Text;
  /** Every parameter but the files; apiUser and apiKey come with `params()`. */
  params: ParamSchema;
  /** The file parameter of a multipart call (mail/send's attachments). */
  files?: { name: string; description: Text };
  /** The envelope's `info` on success. */
  info?: z.ZodType;
  /** Codes the handler answers besides those its parameters name. */
  errors?: ErrorCode[];
}

/** An optional text parameter. */
export const text = (description: Text, extra?: Omit<FieldDoc, 'description'>) =>
  doc(z.string().optional(), description, extra);

const CREDENTIALS = {
  apiUser: doc(z.string().min(1), t('API_USER 名称', 'The API_USER name'), { required: 'API_AUTH_FAILED' }),
  apiKey: doc(z.string().min(1), t('API_USER 的 API_KEY', 'The API_USER’s API_KEY'), {
    required: 'API_AUTH_FAILED',
  }),
};

/** An action's parameters: the credentials, then its own. Unknown parameters are let through. */
export function params(shape: Record<string, z.ZodType> = {}): ParamSchema {
  return z.object({ ...CREDENTIALS, ...shape });
}

/** Codes every authenticated action may answer. */
export const COMMON_ERRORS: ErrorCode[] = [
  'API_AUTH_FAILED',
  'API_AUTH_THROTTLED',
  'COMMON_VALIDATION_FAILED',
  'COMMON_MALFORMED_BODY',
  'COMMON_RATE_LIMITED',
  'COMMON_INTERNAL',
];

const DIGITS = /^\s*\d+\s*$/;
/** A whole number ≥ 1, as the handlers read `days` (Number(value), an integer, at least 1). */
const atLeastOne = (v: string) => Number.isInteger(Number(v)) && Number(v) >= 1;

/** `days` or `startDate`/`endDate` (reference §1). */
export const DATE_RANGE = {
  days: doc(
    z.string().refine(atLeastOne, 'invalid').optional(),
    t('最近几天：1 为今天，2 为今天和昨天……', 'The last N days: 1 is today, 2 today and yesterday, …'),
  ),
  startDate: text(t('开始日期，yyyy-MM-dd，与 endDate 一起使用', 'First day, yyyy-MM-dd, with endDate')),
  endDate: text(t('结束日期，yyyy-MM-dd（含当天）', 'Last day, yyyy-MM-dd (included)')),
};

/** `start`/`limit` paging: a value out of range falls back to the default or the cap, never an error. */
export const PAGING = {
  start: text(t('从第几条开始，默认 0', 'Index of the first entry, default 0')),
  limit: text(
    t(
      '返回条数，0–100，默认 100（更大的值按 100 处理）',
      'How many entries, 0–100, default 100 (more is read as 100)',
    ),
  ),
};

export const API_USER_LIST = {
  apiUserList: text(t('API_USER 名称，多个用 ; 分隔', 'API_USER names, `;`-separated'), {
    codes: ['API_USER_NOT_FOUND'],
  }),
};

export const whole = (description: Text, extra?: Omit<FieldDoc, 'description'>) =>
  doc(z.string().regex(DIGITS, 'invalid').optional(), description, extra);

const checkedParts = new WeakMap<ParamSchema, ParamSchema>();

/**
 * The schema without its free-text parameters (an optional string with no rule): any value of
 * theirs passes, and leaving them out spares every call their parse. Object schemas pass keys
 * they do not name, so the rest is checked as before.
 */
function checkedPart(schema: ParamSchema): ParamSchema {
  const cached = checkedParts.get(schema);
  if (cached) return cached;
  // A rule on the whole object (a refinement, a catch-all) may read any parameter: check them all.
  const whole = (schema._zod.def.checks ?? []).length > 0 || schema._zod.def.catchall !== undefined;
  const free = (field: z.ZodType) =>
    field instanceof z.ZodOptional &&
    field.unwrap() instanceof z.ZodString &&
    (field.unwrap()._zod.def.checks ?? []).length === 0;
  const part = whole
    ? schema
    : z.object(Object.fromEntries(Object.entries(schema.shape).filter(([, field]) => !free(field))));
  checkedParts.set(schema, part);
  return part;
}

/**
 * Validates a call's parameters with the action's schema. A blank value counts as absent, as the
 * handlers read it. An issue on a parameter that names its code answers that code; any other is
 * COMMON_VALIDATION_FAILED naming the parameter.
 */
export function validateParams(schema: ParamSchema, fields: Record<string, string>): void {
  const given: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) if (value.trim() !== '') given[name] = value;
  // Most calls pass: check only the parameters with a rule, and find the first failure in full.
  if (checkedPart(schema).safeParse(given).success) return;
  const result = schema.safeParse(given);
  if (result.success) return;
  const issue = result.error.issues[0];
  const name = String(issue?.path[0] ?? '');
  const field = schema.shape[name];
  const docs = field ? fieldDocs.get(field) : undefined;
  if (!(name in given) && typeof docs?.required === 'string') throw new AppError(docs.required);
  if (name in given && docs?.invalid) throw new AppError(docs.invalid);
  const message =
    issue && isValidationKey(issue.message) ? issue.message : name in given ? 'invalid' : 'required';
  throw new AppError('COMMON_VALIDATION_FAILED', {}, [{ field: name, message }]);
}
