import { createBrowserRouter, type RouteObject, redirect } from 'react-router';
import { PageLoading } from '../components/PageLoading.tsx';
import { RouteErrorBoundary } from '../components/RouteErrorBoundary.tsx';
import { type AppRoute, isRedirectRoute, routes } from '../routes/routes.ts';
import { RootLayout } from './RootLayout.tsx';

/** Turns the route table into React Router objects; the table entry rides along as `handle`. */
function toRouteObject(route: AppRoute): RouteObject {
  if (isRedirectRoute(route)) {
    return {
      path: route.path,
      handle: route,
      loader: ({ request }) => redirect(route.redirectTo + new URL(request.url).search),
    };
  }
  return {
    path: route.path,
    handle: route,
    lazy: async () => ({ Component: (await route.screen()).default }),
  };
}

export function createAppRouter() {
  return createBrowserRouter([
    {
      Component: RootLayout,
      HydrateFallback: PageLoading,
      ErrorBoundary: RouteErrorBoundary,
      children: routes.map(toRouteObject),
    },
  ]);
}
