import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { bindHttpEffects } from '../infra/http/http-effects.ts';
import { baseTheme } from '../stores/theme.ts';
import { queryClient } from './query-client.ts';
import { createAppRouter } from './router.ts';
import { logout } from './session/logout.ts';

const router = createAppRouter();

// 401 and 428 answers navigate inside the app, even during the first page's loaders.
bindHttpEffects({ navigate: (to) => void router.navigate(to), logout });

export function App() {
  const { i18n } = useTranslation();
  const antdLocale = i18n.language === 'en' ? enUS : zhCN;
  return (
    <ConfigProvider locale={antdLocale} theme={baseTheme} button={{ autoInsertSpace: false }}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ConfigProvider>
  );
}
