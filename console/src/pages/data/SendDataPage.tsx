import { PERMISSIONS } from '@herald/shared/permissions';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Can } from '../../components/Can.tsx';
import { EChart } from '../../components/charts/EChart.tsx';
import { StatFilters } from './StatFilters.tsx';
import { figureColumns, rate, SEND_COLUMNS, StatBody } from './stat-view.tsx';
import { exportSendSeries, fetchSendSeries, type SendSeries, type StatParams } from './statistics.api.ts';

const LINES = ['requested', 'delivered', 'opened', 'clicked', 'softBounced', 'invalid'] as const;
type Point = SendSeries['points'][number];
const when = (p: Point) => (p.hour === undefined ? p.day : `${p.day} ${String(p.hour).padStart(2, '0')}:00`);

/** Sending data (`/data/send`): the series per day or hour with filters, a line chart, a table and CSV export. */
export default function SendDataPage() {
  const { t } = useTranslation();
  const [params, setParams] = useState<StatParams>({ preset: 'last7', groupBy: 'day' });
  const series = useQuery({
    queryKey: ['stat', 'send', params],
    queryFn: () => fetchSendSeries(params),
    placeholderData: keepPreviousData,
  });
  const option = useMemo(() => {
    const points = series.data?.points ?? [];
    return {
      tooltip: { trigger: 'axis' },
      legend: { top: 0, data: LINES.map((k) => t(`statistics.figures.${k}`)) },
      grid: { left: 48, right: 24, top: 48, bottom: 32 },
      xAxis: { type: 'category', data: points.map(when) },
      yAxis: { type: 'value', minInterval: 1 },
      series: LINES.map((k) => ({
        name: t(`statistics.figures.${k}`),
        type: 'line',
        data: points.map((p) => p[k]),
      })),
    };
  }, [series.data, t]);

  return (
    <Card
      title={t('statistics.send.title')}
      className="send-data-page"
      extra={
        <Can code={PERMISSIONS.EMAIL_DATA} level="full">
          <Button onClick={() => void exportSendSeries(params)}>{t('statistics.send.export')}</Button>
        </Can>
      }
    >
      <StatFilters value={params} onChange={setParams} apiUser label domain groupBy />
      <StatBody query={series} empty={(d) => d.totals.requested === 0 && d.totals.opened === 0}>
        {(data) => (
          <>
            <EChart option={option} ariaLabel={t('statistics.send.chart')} />
            <Typography.Title level={5}>{t('statistics.send.totals')}</Typography.Title>
            <Descriptions
              className="send-totals"
              size="small"
              column={{ xs: 2, md: 4, xl: 6 }}
              items={(
                [
                  'requested',
                  'delivered',
                  'deliveredRate',
                  'opened',
                  'openRate',
                  'clicked',
                  'clickRate',
                  'softBounced',
                  'invalid',
                  'invalidRate',
                  'spamReported',
                  'unsubscribed',
                ] as const
              ).map((k) => ({
                key: k,
                label: t(`statistics.figures.${k}`),
                children: k.endsWith('Rate') ? rate(data.totals[k]) : data.totals[k].toLocaleString(),
              }))}
            />
            <Table<Point>
              className="send-data-table"
              size="small"
              rowKey={when}
              scroll={{ x: true }}
              pagination={{ pageSize: 31, hideOnSinglePage: true }}
              dataSource={[...data.points].reverse()}
              columns={[
                {
                  key: 'when',
                  title: t(data.groupBy === 'hour' ? 'statistics.figures.hour' : 'statistics.figures.day'),
                  render: (_, p) => when(p),
                  fixed: 'left',
                },
                ...figureColumns<Point>(t, SEND_COLUMNS),
              ]}
            />
          </>
        )}
      </StatBody>
    </Card>
  );
}
