/**
 * Local storage keys (console-spec §3) behind accessors that survive storage being disabled
 * (private mode, policy): a failed read is "nothing stored", a failed write is dropped.
 */
export const LOCAL_KEY = {
  language: 'lang',
  theme: 'theme',
  browserTipDismissed: 'browserTipDismissed',
  /** Test and operator override of the idle notice delay in ms; read once at start. */
  idleMs: 'herald:idleMs',
} as const;

export function readLocal(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeLocal(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage disabled: the value lasts for this page only.
  }
}

export function clearSessionStorage(): void {
  try {
    sessionStorage.clear();
  } catch {
    // Nothing to clear when storage is disabled.
  }
}
