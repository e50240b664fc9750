import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, List, Progress, Row, Segmented, Skeleton, Statistic, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../../components/charts/EChart.tsx';
import { type DashboardOverview, type DayTotals, fetchOverview } from './dashboard.api.ts';
import { QuotaUsage } from './QuotaUsage.tsx';

const TODAY: (keyof DayTotals)[] = ['requested', 'delivered', 'opened', 'clicked', 'invalid', 'softBounced'];
const TREND: (keyof DayTotals)[] = ['requested', 'delivered', 'opened', 'clicked', 'invalid'];

/** Today's figures, the 7/30-day trend, the reputation score and the anti-bombing alerts. */
export function FiguresCards() {
  const { t } = useTranslation();
  const [days, setDays] = useState<7 | 30>(7);
  const overview = useQuery({
    queryKey: ['dashboard', 'overview', days],
    queryFn: () => fetchOverview(days),
  });
  const data = overview.data;
  const option = useMemo(
    () => (data ? trendOption(data.series, TREND, (k) => t(`dashboard.figures.${k}`)) : null),
    [data, t],
  );

  if (overview.isError) return <Card>{t('common.loadFailed')}</Card>;
  return (
    <>
      <Card title={t('dashboard.todayTitle')} className="dashboard-today">
        {data ? (
          <>
            {data.quota.limit !== null && (
              <div style={{ marginBottom: 16 }}>
                <QuotaUsage quota={data.quota} />
              </div>
            )}
            <Row gutter={[16, 16]}>
              {TODAY.map((key) => (
                <Col key={key} xs={12} md={8} lg={4}>
                  <Statistic
                    title={t(`dashboard.figures.${key}`)}
                    value={data.today[key]}
                    className={`today-${key}`}
                  />
                </Col>
              ))}
            </Row>
          </>
        ) : (
          <Skeleton active />
        )}
      </Card>
      <Card
        title={t('dashboard.trendTitle')}
        className="dashboard-trend"
        extra={
          <Segmented
            value={days}
            onChange={(value) => setDays(value as 7 | 30)}
            options={[
              { value: 7, label: t('dashboard.days', { n: 7 }) },
              { value: 30, label: t('dashboard.days', { n: 30 }) },
            ]}
          />
        }
      >
        {option ? <EChart option={option} ariaLabel={t('dashboard.trendTitle')} /> : <Skeleton active />}
      </Card>
      <Row gutter={16}>
        <Col xs={24} md={10}>
          <ReputationCard data={data} />
        </Col>
        <Col xs={24} md={14}>
          <AlertsCard data={data} />
        </Col>
      </Row>
    </>
  );
}

/** A line per figure over the days, as both dashboards draw their trend. */
export function trendOption<T extends { day: string }, K extends keyof T & string>(
  series: T[],
  keys: K[],
  label: (key: K) => string,
) {
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: keys.map(label) },
    grid: { left: 48, right: 24, top: 40, bottom: 32 },
    xAxis: { type: 'category', data: series.map((d) => d.day.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: keys.map((key) => ({
      name: label(key),
      type: 'line',
      smooth: true,
      data: series.map((d) => d[key]),
    })),
  };
}

function ReputationCard({ data }: { data: DashboardOverview | undefined }) {
  const { t } = useTranslation();
  const score = data?.reputation.score ?? 0;
  return (
    <Card title={t('dashboard.reputationTitle')} className="dashboard-reputation" style={{ height: '100%' }}>
      {data ? (
        <Row gutter={16} align="middle">
          <Col>
            <Progress
              type="dashboard"
              percent={score}
              format={(value) => value}
              status={score < 60 ? 'exception' : 'normal'}
            />
          </Col>
          <Col flex="auto">
            <Typography.Text type="secondary">{t('dashboard.yesterday')}</Typography.Text>
            {(['delivered', 'opened', 'clicked', 'invalid', 'spamReported'] as const).map((key) => (
              <div key={key}>
                {t(`dashboard.figures.${key}`)}: {data.reputation.yesterday[key]}
              </div>
            ))}
          </Col>
        </Row>
      ) : (
        <Skeleton active />
      )}
    </Card>
  );
}

function AlertsCard({ data }: { data: DashboardOverview | undefined }) {
  const { t } = useTranslation();
  const rows = [
    ...(data?.alerts.addresses ?? []).map((a) => ({
      key: `a:${a.recipient}`,
      text: t('dashboard.alertAddress', { address: a.recipient, n: a.requests }),
    })),
    ...(data?.alerts.domains ?? []).map((d) => ({
      key: `d:${d.domain}`,
      text: t('dashboard.alertDomain', { domain: d.domain, n: d.requests, usual: d.usual }),
    })),
  ];
  return (
    <Card title={t('dashboard.alertsTitle')} className="dashboard-alerts" style={{ height: '100%' }}>
      {!data ? (
        <Skeleton active />
      ) : rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.noAlerts')} />
      ) : (
        <List
          size="small"
          dataSource={rows}
          renderItem={(row) => (
            <List.Item>
              <Tag color="error">{t('dashboard.alert')}</Tag>
              {row.text}
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
