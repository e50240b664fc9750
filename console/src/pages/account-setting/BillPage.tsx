import { statDay } from '@herald/shared/schemas/statistics.schema';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Empty,
  Row,
  Select,
  Skeleton,
  Space,
  Statistic,
  Table,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type BillView, downloadBill, fetchBill, fetchBillMonths } from '../../api/trade.api.ts';
import { EChart } from '../../components/charts/EChart.tsx';
import { fenToYuan } from '../../components/money.ts';
import { productLabel } from './trade-product.ts';

/**
 * Bills (console-spec §2 /accountSetting/bill): a Beijing month's opening and closing balance,
 * recharges, adjustments and charges, the charges per product with a chart, and its CSV; any of
 * the last 36 months.
 */
export default function BillPage() {
  const { t } = useTranslation();
  const [month, setMonth] = useState(statDay(Date.now()).slice(0, 7));
  const months = useQuery({ queryKey: ['bill', 'months'], queryFn: fetchBillMonths });
  const bill = useQuery({
    queryKey: ['bill', month],
    queryFn: () => fetchBill(month),
    placeholderData: keepPreviousData,
  });
  const exporting = useMutation({ mutationFn: () => downloadBill(month) });
  const b = bill.data;
  const money = (fen: number) => `¥${fenToYuan(fen)}`;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} className="bill-page">
      <Card title={t('trade.billTitle')}>
        <Space wrap>
          <span>{t('trade.month')}</span>
          <Select
            className="bill-month"
            style={{ width: 140 }}
            value={month}
            onChange={setMonth}
            options={(months.data ?? [month]).map((m) => ({ value: m, label: m }))}
          />
          <Button className="bill-export" loading={exporting.isPending} onClick={() => exporting.mutate()}>
            {t('trade.export')}
          </Button>
        </Space>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('trade.billNote')}
        </Typography.Paragraph>
      </Card>
      {bill.isError && <Alert type="error" message={t('trade.loadFailed')} />}
      {!b ? (
        <Skeleton active />
      ) : (
        <>
          <Row gutter={[16, 16]} className="bill-summary">
            {(
              [
                ['opening', b.openingFen],
                ['rechargedTotal', b.rechargedFen],
                ['chargedTotal', b.chargedFen],
                ['adjustedTotal', b.adjustedFen],
                ['otherTotal', b.otherFen],
                ['closing', b.closingFen],
              ] as const
            ).map(([key, fen]) => (
              <Col xs={12} md={8} xl={4} key={key}>
                <Card size="small" className={`bill-${key}`}>
                  <Statistic title={t(`trade.${key}`)} value={money(fen)} />
                </Card>
              </Col>
            ))}
          </Row>
          <Card title={t('trade.byProduct')}>
            {b.products.length === 0 ? (
              <Empty description={t('trade.noBill')} />
            ) : (
              <Row gutter={16}>
                <Col xs={24} lg={14}>
                  <ProductTable bill={b} />
                </Col>
                <Col xs={24} lg={10}>
                  <ProductChart bill={b} />
                </Col>
              </Row>
            )}
          </Card>
        </>
      )}
    </Space>
  );
}

function ProductTable({ bill }: { bill: BillView }) {
  const { t, i18n } = useTranslation();
  return (
    <Table
      rowKey="code"
      className="bill-products"
      pagination={false}
      dataSource={bill.products}
      columns={[
        {
          title: t('trade.product'),
          render: (_, r) => (r.code === 'other' ? t('trade.other') : productLabel(r.code, i18n.language)),
        },
        { title: t('trade.units'), dataIndex: 'units', align: 'right' },
        { title: t('trade.amount'), align: 'right', render: (_, r) => `¥${fenToYuan(r.amountFen)}` },
      ]}
    />
  );
}

function ProductChart({ bill }: { bill: BillView }) {
  const { t, i18n } = useTranslation();
  const option = {
    tooltip: { trigger: 'item', valueFormatter: (v: number) => `¥${Number(v).toFixed(2)}` },
    series: [
      {
        type: 'pie',
        radius: ['40%', '70%'],
        data: bill.products.map((p) => ({
          name: p.code === 'other' ? t('trade.other') : productLabel(p.code, i18n.language),
          value: p.amountFen / 100,
        })),
      },
    ],
  };
  return <EChart option={option} height={260} ariaLabel={t('trade.billChart')} />;
}
