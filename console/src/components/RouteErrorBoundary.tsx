import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/**
 * Catches what a route throws while loading or rendering. The usual cause in production is a
 * screen chunk that no longer exists after a deploy (ChunkLoadError), which a reload fixes.
 */
export function RouteErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (error) console.error(error);
  return (
    <Result
      status="500"
      title={t('common.loadFailed')}
      subTitle={t('common.loadFailedHint')}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('common.reload')}
        </Button>
      }
    />
  );
}
