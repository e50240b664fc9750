import type { UseQueryResult } from '@tanstack/react-query';
import { Empty, Result, Skeleton } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isCancelled } from '../../infra/http/http-errors.ts';

/** What the data-centre screens share: the loading, failure and empty states, and figure columns. */
export function StatBody<T>({
  query,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  empty: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isError && !isCancelled(query.error)) {
    return (
      <Result status="warning" title={t('statistics.loadFailed')} subTitle={(query.error as Error).message} />
    );
  }
  if (!query.data) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (empty(query.data)) return <Empty className="stat-empty" description={t('statistics.empty')} />;
  return children(query.data);
}

export const rate = (n: number) => `${n.toFixed(2)}%`;

const RATE_KEYS = new Set([
  'deliveredRate',
  'invalidRate',
  'softBounceRate',
  'openRate',
  'clickRate',
  'uniqueOpenRate',
  'uniqueClickRate',
  'spamReportedRate',
  'unsubscribeRate',
  'share',
]);

/** Table columns of figures and rates, titled from statistics.figures. */
export function figureColumns<R extends object>(t: TFunction, keys: readonly string[]): ColumnsType<R> {
  return keys.map((key) => ({
    key,
    dataIndex: key,
    title: t(`statistics.figures.${key}` as 'statistics.figures.requested'),
    align: 'right' as const,
    render: (value: number) => (RATE_KEYS.has(key) ? rate(value ?? 0) : (value ?? 0).toLocaleString()),
  }));
}

export const SEND_COLUMNS = [
  'requested',
  'delivered',
  'deliveredRate',
  'opened',
  'uniqueOpened',
  'openRate',
  'clicked',
  'uniqueClicked',
  'clickRate',
  'softBounced',
  'invalid',
  'invalidRate',
  'spamReported',
  'unsubscribed',
] as const;
