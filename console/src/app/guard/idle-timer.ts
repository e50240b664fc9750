import { LOCAL_KEY, readLocal } from '../../infra/storage/local-store.ts';

/**
 * The long-stay notice (console-spec §4 step 5, §9): every guarded navigation restarts a
 * 15-minute timer; when it fires, the console tells the user to refresh, because the data on
 * screen and perhaps the session are stale by then. Public pages stop it.
 *
 * The delay can be shortened for tests and operators through local storage
 * (`localStorage['herald:idleMs']`, a positive number of ms), read once when the console starts.
 * Not a URL parameter: a shared link must not be able to nag its reader.
 */
export const IDLE_MS = 900_000;

function configuredDelay(): number {
  const override = Number(readLocal(LOCAL_KEY.idleMs));
  return Number.isFinite(override) && override > 0 ? override : IDLE_MS;
}

const delay = configuredDelay();
let timer: ReturnType<typeof setTimeout> | undefined;
let onIdle: () => void = () => {};

/** The app binds what happens on expiry (a dialog); the timer itself knows no UI. */
export function bindIdleNotice(show: () => void): () => void {
  onIdle = show;
  return () => {
    if (onIdle === show) onIdle = () => {};
  };
}

export function restartIdleTimer(): void {
  stopIdleTimer();
  timer = setTimeout(() => onIdle(), delay);
}

export function stopIdleTimer(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
}
