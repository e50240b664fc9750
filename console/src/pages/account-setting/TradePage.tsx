import { addDays, statDay } from '@herald/shared/schemas/statistics.schema';
import { tradeOldestDay } from '@herald/shared/schemas/trade.schema';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Empty, Flex, Select, Space, Statistic, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  downloadTradeRecords,
  fetchTradeRecords,
  type LedgerKind,
  type TradeFilter,
  type TradeRecordView,
} from '../../api/trade.api.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { fenToYuan } from '../../components/money.ts';
import { productLabel } from './trade-product.ts';

const PAGE_SIZE = 20;
const FORMAT = 'YYYY-MM-DD';
const KINDS: LedgerKind[] = ['recharge', 'charge', 'refund', 'voucher', 'adjustment'];

/**
 * Trade records (console-spec §2 /accountSetting/trade): the ledger's entries newest first with
 * the balance after each, filtered by type and Beijing dates (a year at most, 3 years back), and
 * their CSV.
 */
export default function TradePage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  // Beijing days, as the server counts them, whatever the browser's time zone.
  const today = statDay(Date.now());
  const [filter, setFilter] = useState<TradeFilter>({ from: addDays(today, -29), to: today });
  const [pageNum, setPageNum] = useState(1);
  const records = useQuery({
    queryKey: ['trade', 'records', filter, pageNum],
    queryFn: () => fetchTradeRecords({ ...filter, pageNum, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const exporting = useMutation({ mutationFn: () => downloadTradeRecords(filter) });
  const apply = (next: Partial<TradeFilter>) => {
    setFilter({ ...filter, ...next });
    setPageNum(1);
  };
  const oldest = tradeOldestDay(today);

  return (
    <Card title={t('trade.tradeTitle')} className="trade-page">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Flex wrap gap="middle" align="center" justify="space-between">
          <Space wrap>
            <Select<LedgerKind | ''>
              className="trade-kind"
              style={{ width: 160 }}
              value={filter.kind ?? ''}
              onChange={(kind) => apply({ kind: kind || undefined })}
              options={[
                { value: '', label: t('trade.allKinds') },
                ...KINDS.map((k) => ({ value: k, label: t(`trade.kinds.${k}`) })),
              ]}
            />
            <DatePicker.RangePicker
              className="trade-range"
              allowClear={false}
              value={[dayjs(filter.from), dayjs(filter.to)]}
              disabledDate={(d) => d.format(FORMAT) > today || d.format(FORMAT) < oldest}
              onChange={(range) => {
                if (range?.[0] && range[1])
                  apply({ from: range[0].format(FORMAT), to: range[1].format(FORMAT) });
              }}
            />
            <Button className="trade-export" loading={exporting.isPending} onClick={() => exporting.mutate()}>
              {t('trade.export')}
            </Button>
          </Space>
          <Space>
            <Statistic
              title={t('trade.balance')}
              value={records.data ? `¥${fenToYuan(records.data.balanceFen)}` : '-'}
              className="trade-balance"
            />
            <Button onClick={() => navigate('/accountSetting/trade/tradeDetails')}>
              {t('trade.detailsTitle')}
            </Button>
            <Button onClick={() => navigate('/accountSetting/trade/receipt')}>
              {t('trade.receiptsTitle')}
            </Button>
          </Space>
        </Flex>
        <Table<TradeRecordView>
          rowKey="id"
          className="trade-records"
          loading={records.isPending}
          dataSource={records.data?.list ?? []}
          scroll={{ x: true }}
          locale={{
            emptyText: (
              <Empty description={t('trade.noRecords')}>
                <Button type="primary" onClick={() => navigate('/accountSetting/financialMangement/charge')}>
                  {t('trade.goCharge')}
                </Button>
              </Empty>
            ),
          }}
          pagination={{
            current: pageNum,
            pageSize: PAGE_SIZE,
            total: records.data?.total ?? 0,
            onChange: setPageNum,
            showSizeChanger: false,
            hideOnSinglePage: true,
          }}
          columns={[
            { title: t('trade.time'), render: (_, r) => formatDateTime(r.createdAt) },
            { title: t('trade.kind'), render: (_, r) => t(`trade.kinds.${r.kind}`) },
            {
              title: t('trade.amount'),
              align: 'right',
              render: (_, r) => (
                <Typography.Text
                  type={r.amountFen < 0 ? 'danger' : 'success'}
                  className="nowrap trade-amount"
                >
                  {r.amountFen > 0 ? '+' : r.amountFen < 0 ? '-' : ''}¥{fenToYuan(Math.abs(r.amountFen))}
                </Typography.Text>
              ),
            },
            {
              title: t('trade.balanceAfter'),
              align: 'right',
              render: (_, r) => (
                <span className="nowrap trade-balance-after">¥{fenToYuan(r.balanceAfterFen)}</span>
              ),
            },
            {
              title: t('trade.note'),
              render: (_, r) =>
                r.kind === 'charge' && r.code
                  ? `${productLabel(r.code, i18n.language)} · ${r.day ?? ''} · ${r.units ?? ''}`
                  : (r.orderNo ?? r.reason),
            },
          ]}
        />
      </Space>
    </Card>
  );
}
