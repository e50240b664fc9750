import { type ComponentType, createElement } from 'react';
import { createBrowserRouter, type RouteObject, redirect } from 'react-router';
import { PageLoading } from '../components/PageLoading.tsx';
import { RouteErrorBoundary } from '../components/RouteErrorBoundary.tsx';
import { ChunkLoadError } from '../infra/chunk-load-error.ts';
import { useCurrentRoute } from '../routes/current-route.ts';
import type { AppRoute } from '../routes/route-types.ts';
import { redirectRoutes, screenRoutes } from '../routes/routes.ts';
import { guardRoute } from './guard/route-guard.ts';
import { RootLayout } from './RootLayout.tsx';
import { loadedScreen, loadScreen } from './screens.ts';

/**
 * Turns the route table into React Router objects. The table entry rides along as `handle`
 * (title, theme, breadcrumbs read it); each screen's loader runs the guard and loads the screen's
 * chunk side by side; backend screens sit under the console shell, itself a chunk of its own so
 * public pages such as /login never load it.
 */
/** Renders the screen of the matched route, whose chunk its loader has loaded. */
function RouteScreen() {
  const route = useCurrentRoute();
  const Screen = route ? loadedScreen(route.page) : undefined;
  return Screen ? createElement(Screen) : null;
}

function toRouteObject(route: AppRoute): RouteObject {
  if (route.kind === 'redirect') {
    return {
      path: route.path,
      handle: route,
      loader: ({ request }) => redirect(route.redirectTo + new URL(request.url).search),
    };
  }
  return {
    path: route.path,
    handle: route,
    loader: async ({ request }) => {
      await Promise.all([guardRoute(route, request), loadScreen(route.page)]);
      return null;
    },
    Component: RouteScreen,
    ErrorBoundary: RouteErrorBoundary,
  };
}

let Shell: ComponentType | undefined;

async function loadShell(): Promise<null> {
  if (!Shell) {
    try {
      Shell = (await import('./layout/BackendLayout.tsx')).BackendLayout;
    } catch (error) {
      throw new ChunkLoadError('loading the console shell failed', 'ChunkLoadError', { cause: error });
    }
  }
  return null;
}

function ShellRoute() {
  return Shell ? createElement(Shell) : null;
}

export function createAppRouter() {
  return createBrowserRouter([
    {
      Component: RootLayout,
      HydrateFallback: PageLoading,
      ErrorBoundary: RouteErrorBoundary,
      children: [
        ...screenRoutes.filter((route) => route.frame === 'public').map(toRouteObject),
        {
          id: 'backend-shell',
          loader: loadShell,
          shouldRevalidate: () => false,
          Component: ShellRoute,
          ErrorBoundary: RouteErrorBoundary,
          // The operators' /admin screens share the console shell.
          children: screenRoutes.filter((route) => route.frame !== 'public').map(toRouteObject),
        },
        ...redirectRoutes.map(toRouteObject),
      ],
    },
  ]);
}

export type AppRouter = ReturnType<typeof createAppRouter>;
