import { SMS_STATUS_CODES } from '@herald/shared/sms-status';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Segmented, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSmsData } from '../../api/sms-messages.api.ts';
import { EChart } from '../../components/charts/EChart.tsx';
import { rate, StatBody } from '../data/stat-view.tsx';

const FIGURES = ['requested', 'delivered', 'sendFailed', 'processFailed', 'waiting', 'billedParts'] as const;
const LINES = ['requested', 'delivered', 'sendFailed', 'processFailed'] as const;
const DAY = 86_400_000;

/** The period of the last `days` days, today included (local midnight to now's day end). */
function lastDays(days: number): { startTime: number; endTime: number } {
  const today = new Date();
  today.setHours(0, 0, 0, 0);
  return { startTime: today.getTime() - (days - 1) * DAY, endTime: today.getTime() + DAY - 1 };
}

/**
 * SMS send data (console-spec §2 /s_data/s_send): per Beijing day the requests, deliveries,
 * failures and billed parts of the last 7 or 30 days, as a line chart, totals, a table and the
 * failures by reason.
 */
export default function SmsSendDataPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh-cn';
  const [days, setDays] = useState(7);
  const range = useMemo(() => lastDays(days), [days]);
  const data = useQuery({
    queryKey: ['smsData', range],
    queryFn: () => fetchSmsData(range),
    placeholderData: keepPreviousData,
  });
  const option = useMemo(() => {
    const points = data.data?.days ?? [];
    return {
      tooltip: { trigger: 'axis' },
      legend: { top: 0, data: LINES.map((k) => t(`smsSend.figures.${k}`)) },
      grid: { left: 48, right: 24, top: 48, bottom: 32 },
      xAxis: { type: 'category', data: points.map((p) => p.day) },
      yAxis: { type: 'value', minInterval: 1 },
      series: LINES.map((k) => ({
        name: t(`smsSend.figures.${k}`),
        type: 'line',
        data: points.map((p) => p[k]),
      })),
    };
  }, [data.data, t]);

  return (
    <Card className="sms-data-page" title={t('smsSend.dataTitle')}>
      <Typography.Paragraph type="secondary">{t('smsSend.dataIntro')}</Typography.Paragraph>
      <Segmented
        className="sms-data-range"
        style={{ marginBottom: 16 }}
        value={days}
        onChange={(value) => setDays(Number(value))}
        options={[
          { value: 7, label: t('smsSend.last7') },
          { value: 30, label: t('smsSend.last30') },
        ]}
      />
      <StatBody query={data} empty={(d) => d.totals.requested === 0}>
        {(view) => (
          <>
            <EChart option={option} ariaLabel={t('smsSend.dataChart')} />
            <Typography.Title level={5}>{t('smsSend.dataTotals')}</Typography.Title>
            <Descriptions className="sms-data-totals" size="small" column={{ xs: 2, md: 4, xl: 7 }}>
              {FIGURES.map((k) => (
                <Descriptions.Item key={k} label={t(`smsSend.figures.${k}`)}>
                  <span className={`sms-total-${k}`}>{view.totals[k]}</span>
                </Descriptions.Item>
              ))}
              <Descriptions.Item label={t('smsSend.deliveredRatio')}>
                {rate(view.totals.requested ? (view.totals.delivered / view.totals.requested) * 100 : 0)}
              </Descriptions.Item>
            </Descriptions>
            {view.failures.length > 0 && (
              <>
                <Typography.Title level={5}>{t('smsSend.dataFailures')}</Typography.Title>
                <Descriptions className="sms-data-failures" size="small" column={{ xs: 1, md: 3 }}>
                  {view.failures.map((f) => (
                    <Descriptions.Item
                      key={f.code}
                      label={`${f.code} ${SMS_STATUS_CODES[f.code as keyof typeof SMS_STATUS_CODES]?.[lang] ?? ''}`}
                    >
                      {f.count}
                    </Descriptions.Item>
                  ))}
                </Descriptions>
              </>
            )}
            <Table
              rowKey="day"
              className="sms-data-table"
              size="small"
              pagination={false}
              dataSource={view.days}
              scroll={{ x: 'max-content' }}
              columns={[
                { title: t('smsSend.dataDay'), dataIndex: 'day' },
                ...FIGURES.map((k) => ({ title: t(`smsSend.figures.${k}`), dataIndex: k })),
              ]}
            />
          </>
        )}
      </StatBody>
    </Card>
  );
}
