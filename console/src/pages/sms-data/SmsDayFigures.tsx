import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Segmented, Skeleton, Statistic, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../components/charts/EChart.tsx';
import { trendOption } from '../backend/dashboard/FiguresCards.tsx';

const DAY = 86_400_000;

/** The last `days` days, today included (local midnight to the end of today). */
export function lastDays(days: number): { startTime: number; endTime: number } {
  const today = new Date();
  today.setHours(0, 0, 0, 0);
  return { startTime: today.getTime() - (days - 1) * DAY, endTime: today.getTime() + DAY - 1 };
}

/**
 * Figures per Beijing day over the last 7 or 30 days, as totals above a line chart: the SMS data
 * screens that count one thing per day (replies, clicks) share it.
 */
export function SmsDayFigures<T extends { day: string }, K extends keyof T & string>(props: {
  className: string;
  queryKey: string;
  fetch: (range: { startTime: number; endTime: number }) => Promise<T[]>;
  lines: K[];
  label: (key: K) => string;
  title: string;
  intro: string;
}) {
  const { t } = useTranslation();
  const { fetch, lines, label } = props;
  const [days, setDays] = useState<7 | 30>(7);
  const range = useMemo(() => lastDays(days), [days]);
  const data = useQuery({
    queryKey: [props.queryKey, range],
    queryFn: () => fetch(range),
    placeholderData: keepPreviousData,
  });
  const option = useMemo(
    () => (data.data ? trendOption(data.data, lines, label) : null),
    [data.data, lines, label],
  );
  const total = (key: K) => (data.data ?? []).reduce((n, d) => n + Number(d[key]), 0);

  return (
    <Card
      className={props.className}
      title={props.title}
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
      <Typography.Paragraph type="secondary">{props.intro}</Typography.Paragraph>
      {data.isError ? (
        <Typography.Text type="secondary">{t('common.loadFailed')}</Typography.Text>
      ) : !option ? (
        <Skeleton active />
      ) : (
        <>
          <Row gutter={16} style={{ marginBottom: 16 }}>
            {lines.map((key) => (
              <Col key={key}>
                <Statistic title={label(key)} value={total(key)} className={`sms-day-total-${key}`} />
              </Col>
            ))}
          </Row>
          <EChart option={option} ariaLabel={props.title} />
        </>
      )}
    </Card>
  );
}
