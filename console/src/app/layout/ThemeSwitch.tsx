import { MailOutlined, MessageOutlined } from '@ant-design/icons';
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { firstMenuPath } from '../../routes/menu.ts';
import type { RouteTheme } from '../../routes/route-types.ts';
import { THEME_HOME } from '../../routes/routes.ts';
import { useSessionStore } from '../../stores/session.store.ts';

/**
 * Switches between the email and the SMS console. The theme follows the route, so switching
 * means going to the other product's first screen the user may open (its dashboard for most).
 */
export function ThemeSwitch({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const theme = useSessionStore((state) => state.theme);
  const permissions = useSessionStore((state) => state.permissions);

  const select = (next: RouteTheme) => {
    if (next === theme) return;
    void navigate(firstMenuPath(next, permissions) ?? THEME_HOME[next]);
  };

  return (
    <Segmented<RouteTheme>
      aria-label={t('shell.themeSwitch')}
      value={theme}
      onChange={select}
      data-testid="theme-switch"
      options={[
        {
          value: 'email',
          icon: <MailOutlined />,
          label: compact ? undefined : t('shell.themeEmail'),
          title: t('shell.themeEmail'),
        },
        {
          value: 'sms',
          icon: <MessageOutlined />,
          label: compact ? undefined : t('shell.themeSms'),
          title: t('shell.themeSms'),
        },
      ]}
    />
  );
}
