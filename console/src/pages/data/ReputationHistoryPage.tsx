import { REPUTATION_PASSING_MIN, STAT_RANGE_PRESETS } from '@herald/shared/schemas/statistics.schema';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../components/charts/EChart.tsx';
import { StatFilters } from './StatFilters.tsx';
import { StatBody } from './stat-view.tsx';
import { fetchReputation, type StatParams } from './statistics.api.ts';

const YESTERDAY = ['delivered', 'opened', 'clicked', 'invalid', 'spamReported'] as const;

/** Reputation history (`/data/reputationHistory`): the score now, yesterday's counts and the daily scores. */
export default function ReputationHistoryPage() {
  const { t } = useTranslation();
  const [params, setParams] = useState<StatParams>({ preset: 'last30' });
  const reputation = useQuery({
    queryKey: ['reputation', params],
    queryFn: () => fetchReputation(params),
    placeholderData: keepPreviousData,
  });
  return (
    <Card title={t('statistics.reputation.title')} className="reputation-page">
      <StatFilters value={params} onChange={setParams} presets={STAT_RANGE_PRESETS} />
      <StatBody query={reputation} empty={() => false}>
        {(data) => (
          <>
            <Row gutter={[16, 16]}>
              <Col xs={24} md={6}>
                <Card size="small">
                  <Statistic
                    className="reputation-score"
                    title={t('statistics.reputation.score')}
                    value={data.score}
                    suffix={
                      <Tag color={data.score >= REPUTATION_PASSING_MIN ? 'success' : 'error'}>
                        {t(
                          data.score >= REPUTATION_PASSING_MIN
                            ? 'statistics.reputation.good'
                            : 'statistics.reputation.low',
                        )}
                      </Tag>
                    }
                  />
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('statistics.reputation.scoreHint')}
                  </Typography.Text>
                </Card>
              </Col>
              <Col xs={24} md={18}>
                <Card
                  size="small"
                  title={t('statistics.reputation.yesterday')}
                  className="reputation-yesterday"
                >
                  <Row gutter={16}>
                    {YESTERDAY.map((k) => (
                      <Col key={k} xs={12} md={4}>
                        <Statistic title={t(`statistics.figures.${k}`)} value={data.yesterday[k]} />
                      </Col>
                    ))}
                  </Row>
                </Card>
              </Col>
            </Row>
            {data.history.length === 0 ? (
              <Typography.Paragraph type="secondary" className="stat-empty" style={{ marginTop: 16 }}>
                {t('statistics.empty')}
              </Typography.Paragraph>
            ) : (
              <EChart
                ariaLabel={t('statistics.reputation.chart')}
                option={{
                  tooltip: { trigger: 'axis' },
                  grid: { left: 40, right: 16, bottom: 32 },
                  xAxis: { type: 'category', data: data.history.map((h) => h.day) },
                  yAxis: { type: 'value', min: 0, max: 100 },
                  series: [
                    {
                      name: t('statistics.reputation.score'),
                      type: 'line',
                      data: data.history.map((h) => h.score),
                      markLine: undefined,
                    },
                  ],
                }}
              />
            )}
          </>
        )}
      </StatBody>
    </Card>
  );
}
