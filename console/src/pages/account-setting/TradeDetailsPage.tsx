import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Empty, Row, Skeleton, Space, Statistic, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { type ConsumptionView, fetchConsumption } from '../../api/trade.api.ts';
import { EChart } from '../../components/charts/EChart.tsx';
import { fenToYuan } from '../../components/money.ts';
import { productLabel } from './trade-product.ts';

type Day = ConsumptionView['today'];

/**
 * Real-time consumption (console-spec §2 /accountSetting/trade/tradeDetails): what charging by
 * result has counted today and yesterday per price item (units, the exact amount rounded up,
 * what has been charged so far) with the price, and a chart of the two days.
 */
export default function TradeDetailsPage() {
  const { t } = useTranslation();
  const usage = useQuery({
    queryKey: ['trade', 'consumption'],
    queryFn: fetchConsumption,
    refetchInterval: 30_000,
  });
  if (usage.isError) return <Alert type="error" message={t('trade.loadFailed')} />;
  if (!usage.data) return <Skeleton active />;
  const { today, yesterday } = usage.data;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} className="trade-details">
      <Row gutter={16}>
        {(
          [
            ['today', today],
            ['yesterday', yesterday],
          ] as const
        ).map(([key, day]) => (
          <Col xs={24} md={12} key={key}>
            <DayCard title={`${t(`trade.${key}`)} ${day.day}`} day={day} />
          </Col>
        ))}
      </Row>
      <Card title={t('trade.usageChart')}>
        {today.items.length + yesterday.items.length > 0 ? (
          <UsageChart today={today} yesterday={yesterday} />
        ) : (
          <Empty description={t('trade.noUsage')} />
        )}
      </Card>
    </Space>
  );
}

function DayCard({ title, day }: { title: string; day: Day }) {
  const { t, i18n } = useTranslation();
  return (
    <Card title={title} className="trade-day">
      <Space size="large" style={{ marginBottom: 16 }}>
        <Statistic title={t('trade.accrued')} value={`¥${fenToYuan(day.accruedFen)}`} />
        <Statistic title={t('trade.charged')} value={`¥${fenToYuan(day.chargedFen)}`} />
      </Space>
      <Table
        rowKey="code"
        size="small"
        pagination={false}
        dataSource={day.items}
        locale={{ emptyText: <Empty description={t('trade.noUsage')} /> }}
        columns={[
          { title: t('trade.product'), render: (_, r) => productLabel(r.code, i18n.language) },
          { title: t('trade.units'), dataIndex: 'units', align: 'right' },
          {
            title: t('trade.price'),
            render: (_, r) =>
              r.priceFen === null
                ? '-'
                : t('trade.pricePer', { fen: fenToYuan(r.priceFen), unit: r.priceUnit }),
          },
          { title: t('trade.accrued'), align: 'right', render: (_, r) => `¥${fenToYuan(r.accruedFen)}` },
          { title: t('trade.charged'), align: 'right', render: (_, r) => `¥${fenToYuan(r.chargedFen)}` },
        ]}
      />
    </Card>
  );
}

function UsageChart({ today, yesterday }: { today: Day; yesterday: Day }) {
  const { t, i18n } = useTranslation();
  const codes = [...new Set([...today.items, ...yesterday.items].map((i) => i.code))];
  const fen = (day: Day, code: string) => (day.items.find((i) => i.code === code)?.accruedFen ?? 0) / 100;
  const option = {
    grid: { left: 56, right: 16, top: 40, bottom: 32 },
    legend: { top: 0 },
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => `¥${Number(v).toFixed(2)}` },
    xAxis: { type: 'category', data: codes.map((c) => productLabel(c, i18n.language)) },
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => `¥${v}` } },
    series: [
      { name: t('trade.yesterday'), type: 'bar', data: codes.map((c) => fen(yesterday, c)) },
      { name: t('trade.today'), type: 'bar', data: codes.map((c) => fen(today, c)) },
    ],
  };
  return <EChart option={option} height={280} ariaLabel={t('trade.usageChart')} />;
}
