import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { HeraldLogo } from '../../components/HeraldLogo.tsx';
import { THEME_HOME } from '../../routes/routes.ts';
import { useSessionStore } from '../../stores/session.store.ts';
import styles from './BackendLayout.module.css';

/** The product mark at the top of the sidebar: the envelope or the bubble, and which console this is. */
export function SidebarBrand({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const theme = useSessionStore((state) => state.theme);
  const home = THEME_HOME[theme];
  const goHome = (event: MouseEvent) => {
    event.preventDefault();
    void navigate(home);
  };
  return (
    <a href={home} onClick={goHome} className={styles.brand} data-testid="sidebar-brand" data-theme={theme}>
      <HeraldLogo size={32} variant={theme} />
      {!collapsed && (
        <span className={styles.brandText}>
          <span className={styles.brandName}>{t('common.productName')}</span>
          <span className={styles.brandProduct}>
            {theme === 'sms' ? t('shell.consoleSms') : t('shell.consoleEmail')}
          </span>
        </span>
      )}
    </a>
  );
}
