import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../components/charts/EChart.tsx';
import { StatFilters } from './StatFilters.tsx';
import { figureColumns, StatBody } from './stat-view.tsx';
import { fetchReceiveDomains, type ReceiveDomainRow, type StatParams } from './statistics.api.ts';

const SLICES = 9;

/** Receiving domains (`/data/receiveDomain`): the distribution of requests over receiving domains. */
export default function ReceiveDomainPage() {
  const { t } = useTranslation();
  const [params, setParams] = useState<StatParams>({ preset: 'last30' });
  const domains = useQuery({
    queryKey: ['stat', 'receiveDomain', params],
    queryFn: () => fetchReceiveDomains(params),
    placeholderData: keepPreviousData,
  });
  return (
    <Card title={t('statistics.receiveDomain.title')} className="receive-domain-page">
      <StatFilters value={params} onChange={setParams} apiUser label />
      <StatBody query={domains} empty={(d) => d.rows.length === 0}>
        {(data) => {
          const top = data.rows.slice(0, SLICES).map((r) => ({ name: r.domain, value: r.requested }));
          const rest = data.rows.slice(SLICES).reduce((sum, r) => sum + r.requested, 0);
          if (rest > 0) top.push({ name: t('statistics.receiveDomain.others'), value: rest });
          return (
            <Row gutter={16}>
              <Col xs={24} lg={10}>
                <EChart
                  ariaLabel={t('statistics.receiveDomain.chart')}
                  option={{
                    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
                    legend: { type: 'scroll', bottom: 0 },
                    series: [{ type: 'pie', radius: ['30%', '62%'], data: top }],
                  }}
                />
              </Col>
              <Col xs={24} lg={14}>
                <Table<ReceiveDomainRow>
                  className="receive-domain-table"
                  size="small"
                  rowKey="domain"
                  pagination={{ pageSize: 15, hideOnSinglePage: true }}
                  dataSource={data.rows}
                  columns={[
                    { key: 'domain', dataIndex: 'domain', title: t('statistics.figures.domain') },
                    ...figureColumns<ReceiveDomainRow>(t, [
                      'requested',
                      'share',
                      'deliveredRate',
                      'openRate',
                    ]),
                  ]}
                />
              </Col>
            </Row>
          );
        }}
      </StatBody>
    </Card>
  );
}
