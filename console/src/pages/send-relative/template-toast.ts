import { httpEffects } from '../../infra/http/http-effects.ts';

/** A success toast through the app's toast bridge (the same one the HTTP client uses). */
export function toastSuccess(text: string): void {
  httpEffects().toast('success', text, 3);
}
