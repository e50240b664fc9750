import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatFilters } from './StatFilters.tsx';
import { figureColumns, SEND_COLUMNS, StatBody } from './stat-view.tsx';
import { fetchReceiveDomains, type ReceiveDomainRow, type StatParams } from './statistics.api.ts';

/** Receiving data (`/data/receive`): every figure and rate per receiving domain. */
export default function ReceivePage() {
  const { t } = useTranslation();
  const [params, setParams] = useState<StatParams>({ preset: 'last7' });
  const domains = useQuery({
    queryKey: ['stat', 'receiveDomain', params],
    queryFn: () => fetchReceiveDomains(params),
    placeholderData: keepPreviousData,
  });
  return (
    <Card title={t('statistics.receive.title')} className="receive-page">
      <Typography.Paragraph type="secondary">{t('statistics.receive.intro')}</Typography.Paragraph>
      <StatFilters value={params} onChange={setParams} apiUser label domain />
      <StatBody query={domains} empty={(d) => d.rows.length === 0}>
        {(data) => (
          <Table<ReceiveDomainRow>
            className="receive-table"
            size="small"
            rowKey="domain"
            scroll={{ x: true }}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            dataSource={data.rows}
            columns={[
              { key: 'domain', dataIndex: 'domain', title: t('statistics.figures.domain'), fixed: 'left' },
              ...figureColumns<ReceiveDomainRow>(t, SEND_COLUMNS),
            ]}
          />
        )}
      </StatBody>
    </Card>
  );
}
