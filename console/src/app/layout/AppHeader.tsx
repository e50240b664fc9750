import { MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { PERMISSIONS } from '@herald/shared/permissions';
import { Button, Layout } from 'antd';
import { useTranslation } from 'react-i18next';
import { Can } from '../../components/Can.tsx';
import { HeraldLogo } from '../../components/HeraldLogo.tsx';
import { LanguageSwitcher } from '../../components/LanguageSwitcher.tsx';
import { useSessionStore } from '../../stores/session.store.ts';
import { themePalettes } from '../../stores/theme.ts';
import styles from './BackendLayout.module.css';
import { BalanceTag } from './BalanceTag.tsx';
import { MessageBadge } from './MessageBadge.tsx';
import { ThemeSwitch } from './ThemeSwitch.tsx';
import { UserMenu } from './UserMenu.tsx';

/**
 * The console header: the sidebar toggle, the product switch, language, balance, messages and
 * the user menu. On a phone the toggle opens the menu drawer and language moves into the user menu.
 */
export function AppHeader({ onToggleMenu }: { onToggleMenu: () => void }) {
  const { t } = useTranslation();
  const device = useSessionStore((state) => state.device);
  const sidebarOpen = useSessionStore((state) => state.sidebarOpen);
  const theme = useSessionStore((state) => state.theme);
  const mobile = device === 'mobile';

  const toggleLabel = mobile
    ? t('shell.openMenu')
    : sidebarOpen
      ? t('shell.collapseSidebar')
      : t('shell.expandSidebar');
  const toggleIcon = mobile ? <MenuOutlined /> : sidebarOpen ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />;

  return (
    <Layout.Header className={styles.header}>
      <span className={styles.headerAccent} style={{ background: themePalettes[theme].headerAccent }} />
      <div className={styles.headerLeft}>
        <Button
          type="text"
          icon={toggleIcon}
          aria-label={toggleLabel}
          title={toggleLabel}
          onClick={onToggleMenu}
          data-testid="sidebar-toggle"
        />
        {mobile && <HeraldLogo size={26} variant={theme} />}
        <ThemeSwitch compact={mobile} />
      </div>
      <div className={styles.headerRight}>
        {!mobile && <LanguageSwitcher />}
        <BalanceTag />
        <Can code={PERMISSIONS.MESSAGE_CENTRE}>
          <MessageBadge />
        </Can>
        <UserMenu withLanguage={mobile} />
      </div>
    </Layout.Header>
  );
}
