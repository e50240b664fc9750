import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../components/charts/EChart.tsx';
import { StatFilters } from './StatFilters.tsx';
import { rate, StatBody } from './stat-view.tsx';
import { type Figures, fetchOverview, type StatParams } from './statistics.api.ts';

const CARDS = [
  'requested',
  'delivered',
  'deliveredRate',
  'uniqueOpenRate',
  'uniqueClickRate',
  'invalid',
] as const;

function FigureCards({ title, figures }: { title: string; figures: Figures }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={title} className="overview-cards">
      <Row gutter={[16, 8]}>
        {CARDS.map((k) => (
          <Col key={k} xs={12} md={8} xl={4}>
            <Statistic
              title={t(`statistics.figures.${k}`)}
              value={k.endsWith('Rate') ? rate(figures[k]) : figures[k]}
            />
          </Col>
        ))}
      </Row>
    </Card>
  );
}

/** Data overview (`/data/dataView`): today, yesterday and the range's totals as cards, and the daily trend. */
export default function DataViewPage() {
  const { t } = useTranslation();
  const [params, setParams] = useState<StatParams>({ preset: 'last30' });
  const overview = useQuery({
    queryKey: ['stat', 'overview', params],
    queryFn: () => fetchOverview(params),
    placeholderData: keepPreviousData,
  });
  return (
    <Card title={t('statistics.dataView.title')} className="data-view-page">
      <StatFilters value={params} onChange={setParams} />
      <StatBody query={overview} empty={() => false}>
        {(data) => (
          <Row gutter={[16, 16]}>
            <Col span={24}>
              <FigureCards title={t('statistics.dataView.today')} figures={data.today} />
            </Col>
            <Col span={24}>
              <FigureCards title={t('statistics.dataView.yesterday')} figures={data.yesterday} />
            </Col>
            <Col span={24}>
              <FigureCards title={t('statistics.dataView.range')} figures={data.totals} />
            </Col>
            <Col span={24}>
              <Card size="small" title={t('statistics.dataView.trend')}>
                <EChart
                  ariaLabel={t('statistics.dataView.trend')}
                  option={{
                    tooltip: { trigger: 'axis' },
                    legend: { top: 0 },
                    grid: { left: 48, right: 16, top: 48, bottom: 32 },
                    xAxis: { type: 'category', data: data.trend.map((d) => d.day) },
                    yAxis: { type: 'value', minInterval: 1 },
                    series: (['requested', 'delivered', 'uniqueOpened', 'uniqueClicked'] as const).map(
                      (k) => ({
                        name: t(`statistics.figures.${k}`),
                        type: 'line',
                        data: data.trend.map((d) => d[k]),
                      }),
                    ),
                  }}
                />
              </Card>
            </Col>
          </Row>
        )}
      </StatBody>
    </Card>
  );
}
