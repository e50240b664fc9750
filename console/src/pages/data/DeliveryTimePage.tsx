import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Table, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../components/charts/EChart.tsx';
import { StatFilters } from './StatFilters.tsx';
import { rate, StatBody } from './stat-view.tsx';
import { type BucketFigures, fetchDeliveryTime, type StatParams } from './statistics.api.ts';

/** Delivery time (`/data/deliveryTime`): the buckets of accept-to-250 time by date and by receiving domain. */
export default function DeliveryTimePage() {
  const { t } = useTranslation();
  const [params, setParams] = useState<StatParams>({ preset: 'last7' });
  const times = useQuery({
    queryKey: ['stat', 'deliveryTime', params],
    queryFn: () => fetchDeliveryTime(params),
    placeholderData: keepPreviousData,
  });
  const bucketName = (key: string) =>
    t(`statistics.deliveryTime.buckets.${key}` as 'statistics.deliveryTime.buckets.lt1s');
  const bucketColumns = (buckets: string[]) =>
    buckets.map((key, i) => ({
      key,
      title: bucketName(key),
      align: 'right' as const,
      render: (_: unknown, row: BucketFigures) => `${row.counts[i] ?? 0} (${rate(row.percents[i] ?? 0)})`,
    }));
  const total = {
    key: 'total',
    dataIndex: 'total',
    title: t('statistics.figures.total'),
    align: 'right' as const,
  };

  return (
    <Card title={t('statistics.deliveryTime.title')} className="delivery-time-page">
      <Typography.Paragraph type="secondary">{t('statistics.deliveryTime.intro')}</Typography.Paragraph>
      <StatFilters value={params} onChange={setParams} domain />
      <StatBody query={times} empty={(d) => d.totals.total === 0}>
        {(data) => (
          <Tabs
            items={[
              {
                key: 'date',
                label: t('statistics.deliveryTime.byDate'),
                children: (
                  <>
                    <Row gutter={16}>
                      <Col xs={24} lg={15}>
                        <EChart
                          ariaLabel={t('statistics.deliveryTime.chartByDate')}
                          option={{
                            tooltip: { trigger: 'axis' },
                            legend: { type: 'scroll', top: 0 },
                            grid: { left: 48, right: 16, bottom: 32, top: 48 },
                            xAxis: { type: 'category', data: data.byDay.map((d) => d.day) },
                            yAxis: { type: 'value', minInterval: 1 },
                            series: data.buckets.map((key, i) => ({
                              name: bucketName(key),
                              type: 'bar',
                              stack: 'time',
                              data: data.byDay.map((d) => d.counts[i]),
                            })),
                          }}
                        />
                      </Col>
                      <Col xs={24} lg={9}>
                        <EChart
                          ariaLabel={t('statistics.deliveryTime.chartShare')}
                          option={{
                            tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
                            series: [
                              {
                                type: 'pie',
                                radius: ['35%', '65%'],
                                data: data.buckets
                                  .map((key, i) => ({ name: bucketName(key), value: data.totals.counts[i] }))
                                  .filter((d) => (d.value ?? 0) > 0),
                              },
                            ],
                          }}
                        />
                      </Col>
                    </Row>
                    <Table
                      className="delivery-time-table"
                      size="small"
                      rowKey="day"
                      scroll={{ x: true }}
                      pagination={{ pageSize: 31, hideOnSinglePage: true }}
                      dataSource={[...data.byDay].reverse()}
                      columns={[
                        { key: 'day', dataIndex: 'day', title: t('statistics.figures.day') },
                        total,
                        ...bucketColumns(data.buckets),
                      ]}
                    />
                  </>
                ),
              },
              {
                key: 'domain',
                label: t('statistics.deliveryTime.byDomain'),
                children: (
                  <Table
                    className="delivery-time-domains"
                    size="small"
                    rowKey="domain"
                    scroll={{ x: true }}
                    pagination={{ pageSize: 20, hideOnSinglePage: true }}
                    dataSource={data.byDomain}
                    columns={[
                      { key: 'domain', dataIndex: 'domain', title: t('statistics.figures.domain') },
                      total,
                      ...bucketColumns(data.buckets),
                    ]}
                  />
                ),
              },
            ]}
          />
        )}
      </StatBody>
    </Card>
  );
}
