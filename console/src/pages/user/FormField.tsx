import type { ReactNode } from 'react';
import styles from './FormField.module.css';

interface FormFieldProps {
  label?: ReactNode;
  htmlFor?: string;
  /** The translated error under the field, if any. */
  error?: string | undefined;
  /** Shown when there is no error: a hint, or a positive note (`ok`). */
  note?: ReactNode;
  ok?: boolean;
  testId?: string;
  children: ReactNode;
}

/** A labelled form row with its error (or note) underneath. */
export function FormField({ label, htmlFor, error, note, ok, testId, children }: FormFieldProps) {
  return (
    <div className={styles.field} data-testid={testId}>
      {label && (
        <label className={styles.label} htmlFor={htmlFor}>
          {label}
        </label>
      )}
      {children}
      {error ? (
        <div className={styles.error} role="alert" data-testid={testId ? `${testId}-error` : undefined}>
          {error}
        </div>
      ) : (
        note && <div className={ok ? styles.ok : styles.hint}>{note}</div>
      )}
    </div>
  );
}

/** An error of the whole form (a refused login, an expired link…), above the submit button. */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div className={styles.formError} role="alert" data-testid="form-error">
      {message}
    </div>
  );
}
