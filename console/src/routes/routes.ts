import { PUBLIC, type RouteAccess } from '@herald/shared';
import type { ParseKeys } from 'i18next';
import type { ComponentType } from 'react';

/**
 * The console's route table, as data. Every entry names the access it needs: a permission code
 * from `PERMISSIONS`, `AUTHENTICATED` (login but no code) or `PUBLIC` (console-spec §2, §6).
 * The router, the page title, the theme and, later, the guard and the menu are all derived
 * from this one list; a drift test can read it without rendering anything.
 */
export type RouteTheme = 'email' | 'sms';

interface RouteBase {
  path: string;
  access: RouteAccess;
}

export interface ScreenRoute extends RouteBase {
  /** i18n key of the route title; the page title is `common.productName - <title>`. */
  titleKey: ParseKeys;
  /** Forces the email or SMS theme while this route is shown; otherwise the stored theme stays. */
  theme?: RouteTheme;
  screen: () => Promise<{ default: ComponentType }>;
}

export interface RedirectRoute extends RouteBase {
  /** Where to send the visitor; the query string is carried over. */
  redirectTo: string;
}

export type AppRoute = ScreenRoute | RedirectRoute;

export function isRedirectRoute(route: AppRoute): route is RedirectRoute {
  return 'redirectTo' in route;
}

const HomePage = () => import('../pages/home/HomePage.tsx');
const NotFoundPage = () => import('../pages/errors/NotFoundPage.tsx');

export const routes: readonly AppRoute[] = [
  { path: '/', titleKey: 'home.pageTitle', access: PUBLIC, screen: HomePage },
  { path: '/v3', redirectTo: '/home', access: PUBLIC },
  { path: '/home', titleKey: 'home.pageTitle', access: PUBLIC, screen: HomePage },
  { path: '/404', titleKey: 'notFound.pageTitle', access: PUBLIC, screen: NotFoundPage },
  { path: '*', redirectTo: '/404', access: PUBLIC },
];
