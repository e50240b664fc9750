import { useMutation } from '@tanstack/react-query';

/**
 * How every console form saves (ARCHITECTURE.md "Console"): one TanStack mutation. `run` makes
 * the call and does what follows a success (toast, refresh, close); `fail` takes a failure and
 * the values that were sent, usually `showFormError(form, error)`. `saving` drives the button's
 * spinner, and a submit while a save is running is ignored, so a double click sends one request.
 */
export function useFormSave<Values = void>(
  run: (values: Values) => Promise<unknown>,
  fail: (error: unknown, values: Values) => void,
): { submit: (values: Values) => void; saving: boolean } {
  const mutation = useMutation({ mutationFn: run, onError: fail });
  return {
    saving: mutation.isPending,
    submit: (values: Values) => {
      if (!mutation.isPending) mutation.mutate(values);
    },
  };
}
