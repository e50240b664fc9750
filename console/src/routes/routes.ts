import { PUBLIC } from '@herald/shared/permissions';
import { adminScreens } from './admin-routes.ts';
import { backendAreas } from './backend-routes.ts';
import { publicScreens } from './public-routes.ts';
import type { AppRoute, RedirectRoute, RouteArea, ScreenRoute } from './route-types.ts';

/**
 * The console's route table, as data: the public screens and the backend areas flattened into
 * one list of full paths, each naming its access (a permission code, `AUTHENTICATED` or `PUBLIC`),
 * title, theme and page module. The router, the guard, the page title, the menu and the
 * breadcrumbs all derive from it, and Node reads it as is (no React, no screen imports) for the
 * drift test, `npm run screens:status` and the bundle benchmark.
 */
export type * from './route-types.ts';
export { backendAreas, publicScreens };

function areaScreens(area: RouteArea): ScreenRoute[] {
  const full = (relative: string) => `${area.path}/${relative}`;
  const paths = new Set(area.screens.map((screen) => full(screen.path)));
  return area.screens.map((screen) => {
    const access = screen.access ?? area.access;
    if (access === undefined) throw new Error(`route ${full(screen.path)} names no access`);
    const segments = screen.path.split('/');
    const parents = segments
      .slice(1)
      .map((_, index) => full(segments.slice(0, index + 1).join('/')))
      .filter((path) => paths.has(path));
    const nested = segments.length > 1;
    const menu = nested ? undefined : (screen.menu ?? area.menu);
    const route: ScreenRoute = {
      kind: 'screen',
      path: full(screen.path),
      access,
      titleKey: screen.titleKey,
      page: `${area.folder}/${screen.page}`,
      placeholder: screen.placeholder === true,
      frame: 'backend',
      group: area.id,
      frontPage: false,
      parents,
    };
    const theme = screen.theme ?? area.theme;
    if (theme) route.theme = theme;
    if (menu) route.menu = menu;
    const icon = screen.icon ?? area.icon;
    if (icon) route.icon = icon;
    return route;
  });
}

export const screenRoutes: readonly ScreenRoute[] = [
  ...publicScreens.map(
    (screen): ScreenRoute => ({
      kind: 'screen',
      path: screen.path,
      access: PUBLIC,
      titleKey: screen.titleKey,
      page: screen.page,
      placeholder: screen.placeholder === true,
      frame: 'public',
      group: screen.group,
      frontPage: screen.group === 'frontWeb' || screen.path === '/',
      parents: [],
    }),
  ),
  ...backendAreas.flatMap(areaScreens),
  ...adminScreens.map(
    (screen): ScreenRoute => ({
      kind: 'screen',
      path: screen.path,
      access: screen.access,
      titleKey: screen.titleKey,
      page: screen.page,
      placeholder: false,
      frame: 'admin',
      group: 'admin',
      frontPage: false,
      parents: [],
    }),
  ),
];

/**
 * Group paths that are not screens of their own: each sends the visitor to its first screen.
 * `*` must stay last; the router ranks paths, but the table reads top to bottom.
 */
export const redirectRoutes: readonly RedirectRoute[] = [
  { kind: 'redirect', path: '/v3', redirectTo: '/home' },
  { kind: 'redirect', path: '/user', redirectTo: '/login' },
  { kind: 'redirect', path: '/frontWeb', redirectTo: '/home' },
  ...backendAreas.map(
    (area): RedirectRoute => ({
      kind: 'redirect',
      path: area.path,
      redirectTo: `${area.path}/${area.screens[0]?.path ?? ''}`,
    }),
  ),
  { kind: 'redirect', path: '/admin', redirectTo: '/admin/templates' },
  { kind: 'redirect', path: '*', redirectTo: '/404' },
];

export const routes: readonly AppRoute[] = [...screenRoutes, ...redirectRoutes];

const byPath = new Map(screenRoutes.map((route) => [route.path, route]));

/** The screen route registered under exactly this pattern (e.g. `/sendSetting/unsubsribeSetting/preview/:id`). */
export function routeByPath(path: string): ScreenRoute | undefined {
  return byPath.get(path);
}

export function areaById(id: string): RouteArea | undefined {
  return backendAreas.find((area) => area.id === id);
}

/**
 * The first pages of each area, where the guard refreshes the console data (the balance):
 * console-spec §4 step 2.
 */
export const CONSOLE_DATA_PAGES: ReadonlySet<string> = new Set([
  '/data/send',
  '/sendRelative/test',
  '/sendResponse/emailStatus',
  '/s_data/s_send',
  '/s_sendRelative/test',
  '/s_sendResponse/smsStatus',
]);

/** Where the theme switch and the logo lead for each product. */
export const THEME_HOME = { email: '/backend/dashborad', sms: '/backend/s_dashborad' } as const;

export const LOGIN_PATH = '/login';
export const DENY_PATH = '/backend/deny';
export const ACTIVATE_PATH = '/activate';
