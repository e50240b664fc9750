import type { ThemeConfig } from 'antd';
import { useEffect } from 'react';
import { useMatches } from 'react-router';
import type { AppRoute, RouteTheme } from '../routes/routes.ts';

/**
 * Two visual themes, email and SMS (console-spec §1). A route may force one; otherwise the last
 * one shown is kept in local storage, default email (§4 step 1, §9).
 */
const THEME_STORAGE_KEY = 'theme';
const DEFAULT_THEME: RouteTheme = 'email';

export const baseTheme: ThemeConfig = {
  token: {
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', sans-serif",
    borderRadius: 8,
  },
};

export const routeThemes: Record<RouteTheme, ThemeConfig> = {
  email: { token: { colorPrimary: '#1668dc', colorInfo: '#1668dc' } },
  sms: { token: { colorPrimary: '#0e9f6e', colorInfo: '#0e9f6e' } },
};

function readStoredTheme(): RouteTheme {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return stored === 'sms' || stored === 'email' ? stored : DEFAULT_THEME;
  } catch {
    return DEFAULT_THEME;
  }
}

/** The theme of the current route, remembered when the route names one. */
export function useRouteTheme(): RouteTheme {
  const matches = useMatches();
  const route = matches.at(-1)?.handle as AppRoute | undefined;
  const forced = route && 'theme' in route ? route.theme : undefined;
  useEffect(() => {
    if (!forced) return;
    try {
      localStorage.setItem(THEME_STORAGE_KEY, forced);
    } catch {
      // Storage disabled: the theme then follows the route only.
    }
  }, [forced]);
  return forced ?? readStoredTheme();
}
