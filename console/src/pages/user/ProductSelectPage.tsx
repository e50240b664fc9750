import { MailOutlined, MessageOutlined } from '@ant-design/icons';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LOCAL_KEY, writeLocal } from '../../infra/storage/local-store.ts';
import type { RouteTheme } from '../../routes/route-types.ts';
import { THEME_HOME } from '../../routes/routes.ts';
import { themePalettes } from '../../stores/theme.ts';
import { AuthLayout } from './AuthLayout.tsx';
import styles from './ProductSelectPage.module.css';

/**
 * After activation: email or SMS first. The choice is the stored theme (console-spec §4 step 1),
 * so the console opens on that product's dashboard (after the login, if there is no session).
 */
export default function ProductSelectPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const choose = (theme: RouteTheme) => {
    writeLocal(LOCAL_KEY.theme, theme);
    void navigate(THEME_HOME[theme]);
  };
  const choices: { theme: RouteTheme; icon: ReactNode; name: string; body: string }[] = [
    {
      theme: 'email',
      icon: <MailOutlined />,
      name: t('auth.productEmail'),
      body: t('auth.productEmailBody'),
    },
    { theme: 'sms', icon: <MessageOutlined />, name: t('auth.productSms'), body: t('auth.productSmsBody') },
  ];
  return (
    <AuthLayout
      wide
      title={t('auth.productSelectTitle')}
      subtitle={t('auth.productSelectSubtitle')}
      testId="product-select-page"
    >
      <div className={styles.choices}>
        {choices.map(({ theme, icon, name, body }) => (
          <button
            key={theme}
            type="button"
            className={styles.choice}
            data-testid={`product-${theme}`}
            style={
              {
                '--choice-color': themePalettes[theme].primary,
                '--choice-bg': themePalettes[theme].primaryBg,
              } as CSSProperties
            }
            onClick={() => choose(theme)}
          >
            <span className={styles.icon}>{icon}</span>
            <span className={styles.name}>{name}</span>
            <span className={styles.body}>{body}</span>
            <span className={styles.go}>{t('auth.enterConsole')} →</span>
          </button>
        ))}
      </div>
    </AuthLayout>
  );
}
