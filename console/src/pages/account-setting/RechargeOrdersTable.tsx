import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  checkRechargeOrder,
  fetchRechargeOrders,
  type RechargeOrderView,
  type RechargeStatus,
} from '../../api/recharges.api.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { fenToYuan } from '../../components/money.ts';

const PAGE_SIZE = 10;
const STATUS_COLOURS: Record<RechargeStatus, string> = {
  pending: 'processing',
  paid: 'success',
  closed: 'default',
  failed: 'error',
};

export function RechargeStatusTag({ status }: { status: RechargeStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOURS[status]} className={`recharge-status recharge-status-${status}`}>
      {t(`recharge.statuses.${status}`)}
    </Tag>
  );
}

/**
 * The account's recharge orders, newest first: number, amount (and what the provider charged when
 * that was another currency), method, status, when placed and paid. A pending one can be checked
 * with its provider at once.
 */
export function RechargeOrdersTable() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [pageNum, setPageNum] = useState(1);
  const orders = useQuery({
    queryKey: ['recharge', 'orders', pageNum],
    queryFn: () => fetchRechargeOrders({ pageNum, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const check = useMutation({
    mutationFn: checkRechargeOrder,
    onSettled: () => queries.invalidateQueries({ queryKey: ['recharge', 'orders'] }),
  });

  return (
    <Table<RechargeOrderView>
      rowKey="orderNo"
      className="recharge-orders"
      loading={orders.isPending}
      dataSource={orders.data?.list ?? []}
      scroll={{ x: true }}
      locale={{ emptyText: <Empty description={t('recharge.noOrders')} /> }}
      pagination={{
        current: pageNum,
        pageSize: PAGE_SIZE,
        total: orders.data?.total ?? 0,
        onChange: setPageNum,
        showSizeChanger: false,
        hideOnSinglePage: true,
      }}
      columns={[
        {
          title: t('recharge.orderNo'),
          render: (_, row) => <Typography.Text copyable>{row.orderNo}</Typography.Text>,
        },
        {
          title: t('recharge.amount'),
          render: (_, row) => (
            <span className="nowrap">
              ¥{fenToYuan(row.amountFen)}
              {row.providerCurrency !== 'CNY' && (
                <Typography.Text type="secondary">
                  {' '}
                  ({`${row.providerCurrency} ${row.providerAmount}`})
                </Typography.Text>
              )}
            </span>
          ),
        },
        { title: t('recharge.method'), render: (_, row) => t(`recharge.channels.${row.channel}`) },
        { title: t('recharge.status'), render: (_, row) => <RechargeStatusTag status={row.status} /> },
        {
          title: t('recharge.createdAt'),
          render: (_, row) => <span className="nowrap">{formatDateTime(row.createdAt)}</span>,
        },
        {
          title: t('recharge.paidAt'),
          render: (_, row) => <span className="nowrap">{row.paidAt ? formatDateTime(row.paidAt) : '-'}</span>,
        },
        {
          title: t('recharge.actions'),
          render: (_, row) =>
            row.status === 'pending' && (
              <Button
                size="small"
                className="recharge-check"
                loading={check.isPending && check.variables === row.orderNo}
                onClick={() => check.mutate(row.orderNo)}
              >
                {t('recharge.check')}
              </Button>
            ),
        },
      ]}
    />
  );
}
