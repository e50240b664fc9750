import { Button, Card, Result } from 'antd';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { firstMenuPath } from '../../routes/menu.ts';
import { useSessionStore } from '../../stores/session.store.ts';

/** Where the guard sends a user lacking a route's permission code (console-spec §4, product-spec §6). */
export default function AccessDeniedPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const theme = useSessionStore((state) => state.theme);
  const permissions = useSessionStore((state) => state.permissions);
  const home = firstMenuPath(theme, permissions);
  const goHome = (event: MouseEvent) => {
    event.preventDefault();
    if (home) void navigate(home);
  };
  return (
    <Card variant="borderless">
      <Result
        status="403"
        title={t('shell.denyTitle')}
        subTitle={t('shell.denyHint')}
        data-testid="access-denied"
        extra={
          home && (
            <Button type="primary" href={home} onClick={goHome}>
              {t('shell.denyBack')}
            </Button>
          )
        }
      />
    </Card>
  );
}
