import { validationMessage } from '@herald/shared/validation';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../infra/http/http-errors.ts';
import { currentLang } from '../../stores/i18n.ts';

/**
 * Form state checked by a shared zod schema (product-spec §5): the schema reports a rule by its
 * key and the message comes from the shared catalogue in the current language, so the console
 * and the server word a rule the same way. Errors are kept as keys (or the server's text) and
 * translated when shown, so switching the language re-words them.
 */
interface SafeParser<Out> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: Out }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/**
 * The schema itself, or a loader of it: /login takes its schema (and zod with it) in a chunk of
 * its own, fetched right after the screen paints, so the first load stays within its budget.
 */
export type SchemaSource<Out> = SafeParser<Out> | (() => Promise<SafeParser<Out>>);

export function useSchemaForm<V extends Record<string, unknown>, Out>(schema: SchemaSource<Out>, initial: V) {
  useTranslation();
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});

  const set = <K extends keyof V>(field: K, value: V[K]) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => (previous[field as string] ? { ...previous, [field]: undefined } : previous));
  };

  /** `field` may also name a row outside the schema: `form`, `slider`, `captchaCode`. */
  const setError = (field: string, message: string | undefined) =>
    setErrors((previous) => ({ ...previous, [field]: message }));

  /** The parsed values, or null after showing every rule that failed. */
  const validate = async (extra: Record<string, unknown> = {}): Promise<Out | null> => {
    const parser = typeof schema === 'function' ? await schema() : schema;
    const result = parser.safeParse({ ...values, ...extra });
    if (result.success) return result.data;
    const next: Record<string, string> = {};
    for (const issue of result.error.issues) {
      next[String(issue.path[0] ?? 'form')] ??= issue.message;
    }
    setErrors(next);
    return null;
  };

  /** Puts a refused request's message where it belongs: its fields, else the whole form. */
  const showServerError = (error: unknown) => {
    const fields = (error instanceof HttpError ? fieldErrors(error) : []).filter(
      ({ field }) => field in values,
    );
    if (fields.length > 0) {
      setErrors(Object.fromEntries(fields.map(({ field, message }) => [field, message])));
      return;
    }
    setError('form', error instanceof Error ? error.message : String(error));
  };

  const errorOf = (field: string) => {
    const message = errors[field];
    return message ? validationMessage(message, currentLang()) : undefined;
  };

  return { values, set, setValues, errors, errorOf, setError, validate, showServerError };
}

function fieldErrors(error: HttpError): { field: string; message: string }[] {
  const fields = (error.body as { fields?: unknown } | null)?.fields;
  if (!Array.isArray(fields)) return [];
  return fields.filter(
    (entry): entry is { field: string; message: string } =>
      typeof entry?.field === 'string' && typeof entry?.message === 'string',
  );
}
