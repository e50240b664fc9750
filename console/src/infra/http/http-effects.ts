/**
 * The side effects the HTTP client needs from the app (toasts, navigation, logout), bound by the
 * app at start. The client module then imports neither antd nor the router nor the session code,
 * which would make import cycles of the modules that use it. Toasts raised before the toast API
 * is bound (during the first page's loaders) wait and show once it is.
 */
export type ToastLevel = 'success' | 'error';

/** A button in the toast, e.g. "Undo" after a switch that saved at once. */
export interface ToastAction {
  label: string;
  run(): void;
}

export interface HttpEffects {
  toast(level: ToastLevel, text: string, seconds: number, action?: ToastAction): void;
  navigate(to: string): void;
  logout(): Promise<void>;
}

const waitingToasts: Parameters<HttpEffects['toast']>[] = [];

let effects: HttpEffects = {
  toast: (...args) => {
    waitingToasts.push(args);
  },
  navigate: (to) => window.location.assign(to),
  logout: async () => {},
};

export function bindHttpEffects(bound: Partial<HttpEffects>): void {
  effects = { ...effects, ...bound };
  if (bound.toast) for (const args of waitingToasts.splice(0)) bound.toast(...args);
}

export function httpEffects(): HttpEffects {
  return effects;
}
