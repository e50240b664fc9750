import type { MouseEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { HeraldLogo } from '../../components/HeraldLogo.tsx';
import { LanguageSwitcher } from '../../components/LanguageSwitcher.tsx';
import styles from './AuthLayout.module.css';

interface AuthLayoutProps {
  title?: ReactNode;
  subtitle?: ReactNode;
  /** Below the card's content: the links to the neighbouring screens. */
  footer?: ReactNode;
  wide?: boolean;
  testId?: string;
  children: ReactNode;
}

/**
 * The frame of the /user screens: the front site's header (brand, language) over one card. Plain
 * markup and CSS: /login is the first screen most visitors load, so it carries no layout library.
 */
export function AuthLayout({ title, subtitle, footer, wide, testId, children }: AuthLayoutProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const home = (event: MouseEvent) => {
    event.preventDefault();
    void navigate('/');
  };
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <a href="/" onClick={home} className={styles.brand}>
          <HeraldLogo />
          {t('common.productName')}
        </a>
        <LanguageSwitcher />
      </header>
      <main className={styles.main}>
        <section className={wide ? `${styles.card} ${styles.wide}` : styles.card} data-testid={testId}>
          {title && <h1 className={styles.title}>{title}</h1>}
          {subtitle && <p className={styles.subtitle}>{subtitle}</p>}
          {children}
          {footer && <div className={styles.footer}>{footer}</div>}
        </section>
      </main>
    </div>
  );
}
