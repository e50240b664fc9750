import { useQuery } from '@tanstack/react-query';
import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchHealth } from '../../api/health.api.ts';
import styles from './HealthBadge.module.css';

const REFRESH_MS = 30_000;

/** A pill that says whether the server answers `/healthz`; `data-state` is for the browser tests. */
export function HealthBadge() {
  const { t } = useTranslation();
  const health = useQuery({
    queryKey: ['healthz'],
    queryFn: ({ signal }) => fetchHealth(signal),
    refetchInterval: REFRESH_MS,
  });

  const state = health.isPending ? 'loading' : health.isError ? 'error' : 'ok';
  const view = {
    loading: { status: 'processing', text: t('home.statusLoading') },
    ok: { status: 'success', text: t('home.statusOk') },
    error: { status: 'error', text: t('home.statusError') },
  } as const;

  return (
    <span className={styles.status} data-testid="health-badge" data-state={state} aria-live="polite">
      <Badge status={view[state].status} text={view[state].text} />
    </span>
  );
}
