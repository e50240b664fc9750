import { ConfigProvider } from 'antd';
import { Outlet } from 'react-router';
import { usePageTitle } from './page-title.ts';
import { useProgressBar } from './progress-bar.ts';
import { routeThemes, useRouteTheme } from './theme.ts';

/** The root of every route: title, progress bar and the route's theme around the screen. */
export function RootLayout() {
  usePageTitle();
  useProgressBar();
  const theme = useRouteTheme();
  return (
    <ConfigProvider theme={routeThemes[theme]}>
      <Outlet />
    </ConfigProvider>
  );
}
