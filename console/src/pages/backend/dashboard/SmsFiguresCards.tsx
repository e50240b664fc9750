import type { SmsDataDay } from '@herald/shared/schemas/sms-send.schema';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Segmented, Skeleton, Statistic } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../../components/charts/EChart.tsx';
import { fetchSmsOverview } from './dashboard.api.ts';
import { trendOption } from './FiguresCards.tsx';
import { SmsPauseAlertsCard } from './SmsPauseAlerts.tsx';

type Figure = Exclude<keyof SmsDataDay, 'day'>;
const TODAY: Figure[] = ['requested', 'delivered', 'waiting', 'processFailed', 'sendFailed', 'billedParts'];
const TREND: Figure[] = ['requested', 'delivered', 'processFailed', 'sendFailed'];

/** The SMS dashboard's figures: today, the 7/30-day trend, and the anti-bombing alerts. */
export function SmsFiguresCards() {
  const { t } = useTranslation();
  const [days, setDays] = useState<7 | 30>(7);
  const overview = useQuery({
    queryKey: ['dashboard', 'smsOverview', days],
    queryFn: () => fetchSmsOverview(days),
  });
  const data = overview.data;
  const today = data?.data.days.at(-1);
  const option = useMemo(
    () => (data ? trendOption(data.data.days, TREND, (k) => t(`dashboard.smsFigures.${k}`)) : null),
    [data, t],
  );

  if (overview.isError) return <Card>{t('common.loadFailed')}</Card>;
  return (
    <>
      <Card title={t('dashboard.todayTitle')} className="dashboard-sms-today">
        {today ? (
          <Row gutter={[16, 16]}>
            {TODAY.map((key) => (
              <Col key={key} xs={12} md={8} lg={4}>
                <Statistic
                  title={t(`dashboard.smsFigures.${key}`)}
                  value={today[key]}
                  className={`sms-today-${key}`}
                />
              </Col>
            ))}
          </Row>
        ) : (
          <Skeleton active />
        )}
      </Card>
      <Row gutter={16}>
        <Col xs={24} lg={14}>
          <Card
            title={t('dashboard.trendTitle')}
            className="dashboard-sms-trend"
            style={{ height: '100%' }}
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
        </Col>
        <Col xs={24} lg={10}>
          <SmsPauseAlertsCard alerts={data?.alerts} />
        </Col>
      </Row>
    </>
  );
}
