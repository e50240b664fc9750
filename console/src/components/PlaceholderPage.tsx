import { HourglassOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentRoute } from '../routes/current-route.ts';
import { HeraldLogo } from './HeraldLogo.tsx';
import { LanguageSwitcher } from './LanguageSwitcher.tsx';
import styles from './StatusScreen.module.css';

/**
 * The honest stand-in for a screen a later issue builds: it says the screen is not available
 * yet instead of hiding the route. Each route still loads its own page module (its own chunk);
 * the route table marks it `placeholder: true` and `npm run screens:status` counts it. Public
 * placeholders (/login among them) stay light, hence plain markup instead of antd's Result.
 */
export function PlaceholderPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const route = useCurrentRoute();
  const go = (to: string) => (event: MouseEvent) => {
    event.preventDefault();
    void navigate(to);
  };

  const panel = (
    <section className={`${styles.panel} ${styles.screen}`} data-testid="placeholder-page">
      <HourglassOutlined className={styles.iconInfo} />
      <h2 className={styles.title}>{route ? t(route.titleKey) : ''}</h2>
      <span className={styles.tag}>{t('shell.placeholderTag')}</span>
      <p className={styles.body}>{t('shell.placeholderBody')}</p>
      {route?.frame !== 'backend' && (
        <Button href="/" onClick={go('/')}>
          {t('common.backHome')}
        </Button>
      )}
    </section>
  );

  if (route?.frame === 'backend') return panel;
  return (
    <div className={styles.frame}>
      <header className={styles.frameHeader}>
        <a href="/" onClick={go('/')} className={styles.frameBrand}>
          <HeraldLogo />
          {t('common.productName')}
        </a>
        <LanguageSwitcher />
      </header>
      <main className={styles.frameBody}>{panel}</main>
    </div>
  );
}
