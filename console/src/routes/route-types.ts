import type { RouteAccess } from '@herald/shared/permissions';
import type { ParseKeys } from 'i18next';

/**
 * The shapes of the route table. Everything here is plain data (no React, no imports of screens):
 * Node reads the same modules for the drift test, `npm run screens:status` and the bundle
 * benchmark, and the browser derives the router, the guard, the menu and the breadcrumbs from it.
 */
export type RouteTheme = 'email' | 'sms';

/** Which product's sidebar lists a screen. */
export type MenuScope = 'email' | 'sms' | 'both';

/** Icon names the sidebar maps to icon components. */
export type MenuIcon = 'dashboard' | 'data' | 'response' | 'send' | 'settings' | 'plus' | 'account';

/** An i18n key, checked against the Chinese locale files by the typecheck. */
export type TitleKey = ParseKeys;

/** One screen of a backend area; its path is relative to the area's. */
export interface AreaScreen {
  path: string;
  titleKey: TitleKey;
  /** Module in the area's folder under src/pages, without the extension; one chunk per module. */
  page: string;
  /** The permission code, when it differs from the area's. */
  access?: RouteAccess;
  theme?: RouteTheme;
  /** Which sidebar lists it, when it differs from the area's. */
  menu?: MenuScope;
  icon?: MenuIcon;
  /** Still the shared "not available yet" screen; counted by `npm run screens:status`. */
  placeholder?: true;
}

export interface RouteArea {
  id: string;
  path: string;
  /** Folder of the area's page modules under src/pages. */
  folder: string;
  /** Default permission code of the area's screens. */
  access?: RouteAccess;
  titleKey: TitleKey;
  theme?: RouteTheme;
  menu?: MenuScope;
  icon?: MenuIcon;
  /** The area's menu screens sit at the top level of the sidebar instead of in a submenu. */
  flat?: true;
  screens: readonly AreaScreen[];
}

export type PublicGroup = 'site' | 'user' | 'frontWeb' | 'activity' | 'diagnostics';

export interface PublicScreen {
  group: PublicGroup;
  path: string;
  titleKey: TitleKey;
  page: string;
  placeholder?: true;
}

/** A screen of the operators' /admin area (admin-routes.ts); rendered in the console shell. */
export interface AdminScreen {
  path: string;
  titleKey: TitleKey;
  page: string;
  access: RouteAccess;
}

/** A screen of the flattened table: what the router, the guard and the menu work from. */
export interface ScreenRoute {
  kind: 'screen';
  /** The full path, e.g. `/sendRelative/template/templateOpt`. */
  path: string;
  access: RouteAccess;
  titleKey: TitleKey;
  /** Forces the email or SMS theme; otherwise the stored theme stays (console-spec §4 step 1). */
  theme?: RouteTheme;
  page: string;
  placeholder: boolean;
  /** `backend` screens render inside the console shell (header, sidebar, breadcrumbs). */
  frame: 'backend' | 'public' | 'admin';
  /** The backend area id or the public group. */
  group: string;
  /** The sidebar this screen is an entry of, if any. */
  menu?: MenuScope;
  icon?: MenuIcon;
  /** Marketing pages: no progress bar (console-spec §4 step 4). */
  frontPage: boolean;
  /** Paths of the screens above this one, outermost first (breadcrumbs). */
  parents: readonly string[];
}

export interface RedirectRoute {
  kind: 'redirect';
  path: string;
  /** Where to send the visitor; the query string is carried over. */
  redirectTo: string;
}

export type AppRoute = ScreenRoute | RedirectRoute;
