import { validationMessage } from '@herald/shared/validation';
import type { FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import i18next from 'i18next';
import type { z } from 'zod';
import { httpEffects } from '../infra/http/http-effects.ts';
import { HttpError } from '../infra/http/http-errors.ts';
import { ERROR_TOAST_SECONDS } from '../infra/http/http-exceptions.ts';

/**
 * Bridges the shared zod schemas to antd forms (STYLE.md principle 4): a field is checked by the
 * same rule the server runs, and the server's field errors land on the field they name.
 */
const lang = () => (i18next.language === 'en' ? 'en' : 'zh-cn');

export function zodRule(schema: z.ZodType): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      const result = schema.safeParse(value ?? '');
      if (!result.success)
        throw new Error(validationMessage(result.error.issues[0]?.message ?? 'invalid', lang()));
    },
  };
}

/** The field errors of a failed call, `{ field, message }` as the server sends them. */
export function fieldErrorsOf(error: unknown): { field: string; message: string }[] {
  if (!(error instanceof HttpError)) return [];
  const fields = (error.body as { fields?: unknown } | null)?.fields;
  if (!Array.isArray(fields)) return [];
  return fields.filter(
    (f): f is { field: string; message: string } =>
      typeof f === 'object' && f !== null && typeof (f as { field?: unknown }).field === 'string',
  );
}

/** Puts the server's field errors on the form's fields; returns whether any matched a field. */
export function applyFieldErrors(form: FormInstance, error: unknown): boolean {
  const known = new Set(Object.keys(form.getFieldsValue(true) as object));
  const fields = fieldErrorsOf(error).filter((f) => known.has(f.field));
  form.setFields(fields.map((f) => ({ name: f.field, errors: [validationMessage(f.message, lang())] })));
  return fields.length > 0;
}

/** A failed save: the server's field errors on their fields, anything else as an error toast. */
export function showFormError(form: FormInstance, error: unknown): void {
  if (applyFieldErrors(form, error)) return;
  httpEffects().toast('error', error instanceof Error ? error.message : String(error), ERROR_TOAST_SECONDS);
}

/**
 * Checks a whole form against its shared schema (cross-field rules such as "passwords match"
 * included) and marks the fields that fail; resolves true when the values pass.
 */
export function checkWithSchema(form: FormInstance, schema: z.ZodType, values: unknown): boolean {
  const result = schema.safeParse(values);
  if (result.success) return true;
  form.setFields(
    result.error.issues
      .filter((issue) => typeof issue.path[0] === 'string')
      .map((issue) => ({ name: String(issue.path[0]), errors: [validationMessage(issue.message, lang())] })),
  );
  return false;
}
