import { ReloadOutlined, WarningOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { isChunkLoadError } from '../infra/chunk-load-error.ts';
import styles from './StatusScreen.module.css';

/**
 * Catches what a route throws while loading or rendering. A screen chunk (ChunkLoadError) or
 * its stylesheet (CSS_CHUNK_LOAD_FAILED) that failed to load, usually because a deploy replaced
 * it, gets its own explanation; both, like any other failure, offer a reload. Part of the entry
 * chunk (it must work when chunks do not), so it draws itself instead of using antd's Result.
 */
export function RouteErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  if (error && !chunk) console.error(error);
  return (
    <div className={styles.screen} data-testid={chunk ? 'chunk-load-failed' : 'load-failed'} role="alert">
      <WarningOutlined className={styles.icon} />
      <h2 className={styles.title}>{chunk ? t('common.chunkLoadFailed') : t('common.loadFailed')}</h2>
      <p className={styles.body}>{chunk ? t('common.chunkLoadFailedHint') : t('common.loadFailedHint')}</p>
      <Button type="primary" icon={<ReloadOutlined />} onClick={() => window.location.reload()}>
        {t('common.reload')}
      </Button>
    </div>
  );
}
