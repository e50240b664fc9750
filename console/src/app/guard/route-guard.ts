import { resolveLang } from '@herald/shared/lang';
import { PLATFORM_OPERATOR, PUBLIC } from '@herald/shared/permissions';
import NProgress from 'nprogress';
import { redirect } from 'react-router';
import { HttpError } from '../../infra/http/http-errors.ts';
import { COOKIE, readCookie } from '../../infra/storage/cookies.ts';
import type { ScreenRoute } from '../../routes/route-types.ts';
import { CONSOLE_DATA_PAGES, DENY_PATH, LOGIN_PATH } from '../../routes/routes.ts';
import { changeLang, currentLang, loadConsoleLocales } from '../../stores/i18n.ts';
import { sessionState } from '../../stores/session.store.ts';
import { loadConsoleData, loadSession } from '../../stores/session-loader.ts';
import { applyRouteTheme } from '../../stores/theme.ts';
import { restartIdleTimer, stopIdleTimer } from './idle-timer.ts';

/**
 * The route guard, run as the loader of every screen before it renders, in the order of
 * console-spec §4:
 *  1. theme from the route, else the stored one (default email);
 *  2. on the first page of each area, the console data fetch (the balance), once logged in;
 *  3. login routes: no login (loginId cookie) → /login; permissions not loaded → load them; the route's code
 *     missing from them → /backend/deny;
 *  4. the progress bar, except on front-site pages; started first so it also covers the waits
 *     of steps 2 and 3, and finished by RootLayout when the navigation settles;
 *  5. the idle timer, on login routes;
 *  7. the language of a `lang` URL parameter (the first page load reads it in i18n.ts).
 * Step 6 (cancelling repeated data GETs) lives in the HTTP client.
 */
export async function guardRoute(route: ScreenRoute, request: Request): Promise<null> {
  const url = new URL(request.url);
  if (!route.frontPage) NProgress.start();
  applyRouteTheme(route.theme);

  // The credential cookie is httpOnly; loginId says whether, and as whom, someone logged in.
  const login = readCookie(COOKIE.loginId);
  const needsLogin = route.access !== PUBLIC;
  if (needsLogin && login && CONSOLE_DATA_PAGES.has(route.path)) loadConsoleData();

  if (needsLogin) {
    if (!login) throw redirect(LOGIN_PATH);
    const locales = loadConsoleLocales();
    locales.catch(() => undefined); // awaited below, unless a redirect comes first
    // Not loaded yet, or loaded for another login (the loginId cookie changed under us).
    const session = sessionState();
    if (session.permissions === null || session.loginId !== login) await loadSessionOrLogin();
    const permissions = sessionState().permissions ?? [];
    if (typeof route.access === 'number' && !permissions.includes(route.access)) throw redirect(DENY_PATH);
    if (route.access === PLATFORM_OPERATOR && sessionState().userInfo?.platformOperator !== true)
      throw redirect(DENY_PATH);
    await locales;
  }

  if (needsLogin) restartIdleTimer();
  else stopIdleTimer();

  const lang = url.searchParams.get('lang');
  if (lang && resolveLang(lang) !== currentLang()) await changeLang(resolveLang(lang));
  return null;
}

async function loadSessionOrLogin(): Promise<void> {
  try {
    await loadSession();
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) throw redirect(LOGIN_PATH);
    throw error;
  }
}
