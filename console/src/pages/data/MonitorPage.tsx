import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { StatFilters } from './StatFilters.tsx';
import { figureColumns, rate, StatBody } from './stat-view.tsx';
import { fetchMonitor, type MonitorRow, type StatParams } from './statistics.api.ts';

/** The receiving-domain monitor (`/data/monitor`): major providers' rates against their thresholds. */
export default function MonitorPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useState<StatParams>({ preset: 'today' });
  const monitor = useQuery({
    queryKey: ['stat', 'monitor', params],
    queryFn: () => fetchMonitor(params),
    placeholderData: keepPreviousData,
  });
  const limit = (n: number | null, sign: string) => (n === null ? '' : `${sign} ${rate(n)}`);

  return (
    <Card
      title={t('statistics.monitor.title')}
      className="monitor-page"
      extra={
        <Button onClick={() => navigate('/data/monitor/monitorConfig')}>
          {t('statistics.monitor.settings')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('statistics.monitor.intro')}</Typography.Paragraph>
      <StatFilters value={params} onChange={setParams} apiUser label />
      <StatBody query={monitor} empty={(d) => d.rows.length === 0}>
        {(data) => (
          <Table<MonitorRow>
            className="monitor-table"
            size="small"
            rowKey="domain"
            pagination={false}
            scroll={{ x: true }}
            dataSource={data.rows}
            columns={[
              { key: 'domain', dataIndex: 'domain', title: t('statistics.figures.domain') },
              ...figureColumns<MonitorRow>(t, [
                'requested',
                'delivered',
                'deliveredRate',
                'invalidRate',
                'openRate',
              ]),
              {
                key: 'thresholds',
                title: t('statistics.monitor.thresholds'),
                render: (_, r) => (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {[
                      limit(r.thresholds.minDeliveredRate, `${t('statistics.figures.deliveredRate')} ≥`),
                      limit(r.thresholds.maxInvalidRate, `${t('statistics.figures.invalidRate')} ≤`),
                      limit(r.thresholds.minOpenRate, `${t('statistics.figures.openRate')} ≥`),
                    ]
                      .filter(Boolean)
                      .join('; ')}
                  </Typography.Text>
                ),
              },
              {
                key: 'status',
                title: t('statistics.monitor.status'),
                render: (_, r) =>
                  r.requested === 0 ? (
                    <Tag>{t('statistics.monitor.noData')}</Tag>
                  ) : r.alerts.length === 0 ? (
                    <Tag color="success">{t('statistics.monitor.ok')}</Tag>
                  ) : (
                    <Flex gap={4} wrap>
                      {r.alerts.map((a) => (
                        <Tag key={a} color="error">
                          {t(`statistics.monitor.alerts.${a}` as 'statistics.monitor.alerts.open')}
                        </Tag>
                      ))}
                    </Flex>
                  ),
              },
            ]}
          />
        )}
      </StatBody>
    </Card>
  );
}
