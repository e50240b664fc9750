import { ConfigProvider, Drawer, Empty, Layout } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { COOKIE, writeCookie } from '../../infra/storage/cookies.ts';
import { useSessionStore } from '../../stores/session.store.ts';
import { themePalettes } from '../../stores/theme.ts';
import { AdminNav } from './AdminNav.tsx';
import { AppBreadcrumbs } from './AppBreadcrumbs.tsx';
import { AppHeader } from './AppHeader.tsx';
import styles from './BackendLayout.module.css';
import { SidebarBrand } from './SidebarBrand.tsx';
import { SidebarMenu } from './SidebarMenu.tsx';

/**
 * The logged-in console shell around every backend screen: a collapsible sidebar (its state
 * kept in the `sidebarStatus` cookie) that becomes a drawer on a phone, the header, and the
 * breadcrumbs above the screen. Loaded as its own chunk: public pages never pay for it.
 */
export function BackendLayout() {
  const { t } = useTranslation();
  const device = useSessionStore((state) => state.device);
  const sidebarOpen = useSessionStore((state) => state.sidebarOpen);
  const theme = useSessionStore((state) => state.theme);
  const patch = useSessionStore((state) => state.patch);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const mobile = device === 'mobile';
  const palette = themePalettes[theme];

  const toggleMenu = () => {
    if (mobile) {
      setDrawerOpen(true);
      return;
    }
    const open = !sidebarOpen;
    patch({ sidebarOpen: open });
    writeCookie(COOKIE.sidebar, open ? '1' : '0', { days: 365 });
  };

  return (
    <Layout className={styles.shell} data-testid="backend-shell" data-theme={theme} data-device={device}>
      {mobile ? (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          size={260}
          closable={false}
          styles={{ body: { padding: 0, background: palette.siderBg } }}
        >
          <SidebarBrand collapsed={false} />
          <SidebarMenu collapsed={false} onNavigate={() => setDrawerOpen(false)} />
        </Drawer>
      ) : (
        <Layout.Sider
          width={232}
          collapsedWidth={72}
          collapsed={!sidebarOpen}
          trigger={null}
          className={styles.sider}
          style={{ background: palette.siderBg }}
        >
          <SidebarBrand collapsed={!sidebarOpen} />
          <SidebarMenu collapsed={!sidebarOpen} />
        </Layout.Sider>
      )}
      <Layout className={styles.main}>
        <AppHeader onToggleMenu={toggleMenu} />
        <Layout.Content className={styles.content}>
          <AppBreadcrumbs />
          <div className={styles.screen}>
            <AdminNav />
            <ConfigProvider
              renderEmpty={() => (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.noData')} />
              )}
            >
              <Outlet />
            </ConfigProvider>
          </div>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
