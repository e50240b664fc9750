import { ConfigProvider } from 'antd';
import { Outlet } from 'react-router';
import { themePalettes, useTheme } from '../stores/theme.ts';
import { useDeviceType } from './device-type.ts';
import { FeedbackBridge } from './FeedbackBridge.tsx';
import { usePageTitle } from './page-title.ts';
import { useProgressBar } from './progress-bar.ts';

/**
 * The root of every route: title, progress bar, device type and the route's theme around the
 * screen; toasts render inside the themed provider so they wear the theme too.
 */
export function RootLayout() {
  usePageTitle();
  useProgressBar();
  useDeviceType();
  const theme = useTheme();
  return (
    <ConfigProvider theme={themePalettes[theme].antd}>
      <FeedbackBridge />
      <Outlet />
    </ConfigProvider>
  );
}
