import type { ThemeConfig } from 'antd';
import { LOCAL_KEY, readLocal, writeLocal } from '../infra/storage/local-store.ts';
import type { RouteTheme } from '../routes/route-types.ts';
import { useSessionStore } from './session.store.ts';

/**
 * Two visual themes, email and SMS (console-spec §1). A route may force one; otherwise the last
 * one shown is kept in local storage, default email (§4 step 1, §9). The theme lives in the
 * session store so the header switch, the sidebar and the colours change together.
 */
export const DEFAULT_THEME: RouteTheme = 'email';

export const baseTheme: ThemeConfig = {
  token: {
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', sans-serif",
    borderRadius: 8,
  },
};

/** Per-theme colours: the antd tokens plus the shell's own (sidebar, accents). */
export interface ThemePalette {
  antd: ThemeConfig;
  primary: string;
  primaryBg: string;
  primaryBorder: string;
  siderBg: string;
  siderAccent: string;
  headerAccent: string;
}

export const themePalettes: Record<RouteTheme, ThemePalette> = {
  email: {
    antd: {
      token: { colorPrimary: '#1668dc', colorInfo: '#1668dc', colorLink: '#1668dc' },
      components: {
        Menu: { darkItemBg: '#0f1f3d', darkSubMenuItemBg: '#0b1830', darkItemSelectedBg: '#1668dc' },
      },
    },
    primary: '#1668dc',
    primaryBg: '#e6f4ff',
    primaryBorder: '#91caff',
    siderBg: '#0f1f3d',
    siderAccent: '#4096ff',
    headerAccent: 'linear-gradient(90deg, #1668dc, #4096ff)',
  },
  sms: {
    antd: {
      token: { colorPrimary: '#0e9f6e', colorInfo: '#0e9f6e', colorLink: '#0e9f6e' },
      components: {
        Menu: { darkItemBg: '#0c2a22', darkSubMenuItemBg: '#08211a', darkItemSelectedBg: '#0e9f6e' },
      },
    },
    primary: '#0e9f6e',
    primaryBg: '#e8f8f1',
    primaryBorder: '#8fdcbc',
    siderBg: '#0c2a22',
    siderAccent: '#34d399',
    headerAccent: 'linear-gradient(90deg, #0e9f6e, #34d399)',
  },
};

export function readStoredTheme(): RouteTheme {
  const stored = readLocal(LOCAL_KEY.theme);
  return stored === 'sms' || stored === 'email' ? stored : DEFAULT_THEME;
}

/** Guard step 1: the route's theme (remembered), else the stored one. */
export function applyRouteTheme(forced: RouteTheme | undefined): RouteTheme {
  const theme = forced ?? readStoredTheme();
  if (forced) writeLocal(LOCAL_KEY.theme, forced);
  if (useSessionStore.getState().theme !== theme) useSessionStore.getState().patch({ theme });
  paintDocument(theme);
  return theme;
}

/** The theme as CSS variables and a data attribute, for the few styles drawn outside antd. */
function paintDocument(theme: RouteTheme): void {
  const root = document.documentElement;
  const palette = themePalettes[theme];
  root.dataset.theme = theme;
  root.style.setProperty('--herald-primary', palette.primary);
  root.style.setProperty('--herald-primary-bg', palette.primaryBg);
  root.style.setProperty('--herald-primary-border', palette.primaryBorder);
}

export function useTheme(): RouteTheme {
  return useSessionStore((state) => state.theme);
}
