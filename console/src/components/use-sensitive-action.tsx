import i18next from 'i18next';
import { type ReactNode, useCallback, useRef, useState } from 'react';
import { httpEffects } from '../infra/http/http-effects.ts';
import { HttpError, isCancelled } from '../infra/http/http-errors.ts';
import {
  ERROR_TOAST_SECONDS,
  SUCCESS_TOAST_SECONDS,
  UNDO_TOAST_SECONDS,
} from '../infra/http/http-exceptions.ts';
import { VerifyIdentityModal } from './VerifyIdentityModal.tsx';

/**
 * Runs a change that may need a recent verification: when the server answers 403
 * VERIFY_REQUIRED, the verification dialog opens and, once the session is verified, the change
 * runs again. Resolves with the change's result, or `undefined` when the user cancelled or the
 * change failed (its error text is shown, unless `onError` takes it, e.g. for field errors).
 * Render `holder` once in the screen.
 */
export interface SensitiveRunOptions {
  /** Return true when the error was shown on the form; the toast is skipped. */
  onError?: (error: unknown) => boolean;
  /** Toast "Successful operation" when it succeeds (default true). */
  successToast?: boolean;
  /**
   * A change that saved at once (a switch): the success toast says "Saved" and offers "Undo",
   * which runs this (the opposite change) for a few seconds.
   */
  undo?: () => void;
}

export function useSensitiveAction(): {
  run: <T>(action: () => Promise<T>, options?: SensitiveRunOptions) => Promise<T | undefined>;
  /** Opens the dialog now (before a step that needs it); resolves whether the user verified. */
  verify: () => Promise<boolean>;
  holder: ReactNode;
} {
  const [open, setOpen] = useState(false);
  const pending = useRef<((verified: boolean) => void) | null>(null);

  const settle = (verified: boolean) => {
    setOpen(false);
    pending.current?.(verified);
    pending.current = null;
  };

  const verify = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        pending.current = resolve;
        setOpen(true);
      }),
    [],
  );

  const run = useCallback(
    async <T,>(action: () => Promise<T>, options: SensitiveRunOptions = {}): Promise<T | undefined> => {
      const toast = httpEffects().toast;
      for (let attempt = 0; ; attempt++) {
        try {
          const result = await action();
          if (options.undo) {
            toast('success', i18next.t('http.savedAtOnce'), UNDO_TOAST_SECONDS, {
              label: i18next.t('http.undo'),
              run: options.undo,
            });
          } else if (options.successToast !== false) {
            toast('success', i18next.t('http.operationSucceeded'), SUCCESS_TOAST_SECONDS);
          }
          return result;
        } catch (error) {
          if (isCancelled(error)) return undefined;
          if (error instanceof HttpError && error.code === 'VERIFY_REQUIRED' && attempt === 0) {
            const verified = await verify();
            if (!verified) return undefined;
            continue;
          }
          if (!options.onError?.(error)) {
            toast('error', error instanceof Error ? error.message : String(error), ERROR_TOAST_SECONDS);
          }
          return undefined;
        }
      }
    },
    [verify],
  );

  const holder = (
    <VerifyIdentityModal open={open} onVerified={() => settle(true)} onCancel={() => settle(false)} />
  );
  return { run, verify, holder };
}
