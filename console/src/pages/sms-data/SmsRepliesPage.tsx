import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Segmented, Skeleton, Statistic, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSmsReplyData } from '../../api/sms-replies.api.ts';
import { EChart } from '../../components/charts/EChart.tsx';
import { trendOption } from '../backend/dashboard/FiguresCards.tsx';

const DAY = 86_400_000;
const LINES = ['replies', 'optOuts'] as const;

/** The last `days` days, today included (local midnight to the end of today). */
function lastDays(days: number): { startTime: number; endTime: number } {
  const today = new Date();
  today.setHours(0, 0, 0, 0);
  return { startTime: today.getTime() - (days - 1) * DAY, endTime: today.getTime() + DAY - 1 };
}

/**
 * Reply data (console-spec §2 /s_data/replay): per Beijing day the replies handsets sent and how
 * many of them were opt-outs, over the last 7 or 30 days, as a chart and totals.
 */
export default function SmsRepliesPage() {
  const { t } = useTranslation();
  const [days, setDays] = useState<7 | 30>(7);
  const range = useMemo(() => lastDays(days), [days]);
  const data = useQuery({
    queryKey: ['smsReplyData', range],
    queryFn: () => fetchSmsReplyData(range),
    placeholderData: keepPreviousData,
  });
  const option = useMemo(
    () => (data.data ? trendOption(data.data, [...LINES], (k) => t(`smsReplies.figures.${k}`)) : null),
    [data.data, t],
  );
  const total = (key: (typeof LINES)[number]) => (data.data ?? []).reduce((n, d) => n + d[key], 0);

  return (
    <Card
      className="sms-reply-data-page"
      title={t('smsReplies.dataTitle')}
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
      <Typography.Paragraph type="secondary">{t('smsReplies.dataIntro')}</Typography.Paragraph>
      {data.isError ? (
        <Typography.Text type="secondary">{t('common.loadFailed')}</Typography.Text>
      ) : !data.data || !option ? (
        <Skeleton active />
      ) : (
        <>
          <Row gutter={16} style={{ marginBottom: 16 }}>
            {LINES.map((key) => (
              <Col key={key}>
                <Statistic
                  title={t(`smsReplies.figures.${key}`)}
                  value={total(key)}
                  className={`sms-reply-total-${key}`}
                />
              </Col>
            ))}
          </Row>
          <EChart option={option} ariaLabel={t('smsReplies.dataTitle')} />
        </>
      )}
    </Card>
  );
}
