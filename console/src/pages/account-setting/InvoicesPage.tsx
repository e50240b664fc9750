import { PERMISSIONS } from '@herald/shared/permissions';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Popconfirm, Result, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fetchInvoices, type InvoiceView, voidInvoice } from '../../api/invoices.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDateTime } from '../../components/format-time.ts';
import { fenToYuan } from '../../components/money.ts';
import { useCan } from '../../components/use-can.ts';
import { InvoiceStatusTag } from './InvoiceStatusTag.tsx';

const PAGE_SIZE = 10;
const APPLY_PATH = '/accountSetting/financialMangement/applyTicket';
const INFO_PATH = '/accountSetting/financialMangement/createTicketInfo';

/**
 * Invoices (console-spec §2 /accountSetting/financialMangement/ticket): the account's
 * applications, newest first, with amount, type, delivery, postage and status; a rejected one
 * shows the operator's reason and can be edited and resubmitted, a shipped one its express
 * number; one nobody has acted on (or a rejected one) can be voided after a confirmation. With
 * none yet, the empty state leads to applying.
 */
export default function InvoicesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const canChange = useCan(PERMISSIONS.FINANCE, 'full');
  const [pageNum, setPageNum] = useState(1);
  const invoices = useQuery({
    queryKey: ['invoices', 'list', pageNum],
    queryFn: () => fetchInvoices({ pageNum, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const voiding = useMutation({
    mutationFn: voidInvoice,
    onSettled: () => queries.invalidateQueries({ queryKey: ['invoices'] }),
  });

  if (invoices.isError) return <Result status="warning" title={t('common.loadFailed')} />;

  return (
    <Card className="invoices-page">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('invoices.list.title')}
        </Typography.Title>
        <Space>
          <Button onClick={() => navigate(INFO_PATH)}>{t('invoices.list.toInfo')}</Button>
          <Can code={PERMISSIONS.FINANCE} level="full">
            <Button type="primary" onClick={() => navigate(APPLY_PATH)} data-testid="invoices-apply">
              {t('invoices.list.apply')}
            </Button>
          </Can>
        </Space>
      </Flex>
      <Table<InvoiceView>
        rowKey="id"
        className="invoices-table"
        loading={invoices.isPending}
        dataSource={invoices.data?.list ?? []}
        scroll={{ x: true }}
        onRow={(row) => ({ 'data-invoice-id': row.id }) as React.HTMLAttributes<HTMLElement>}
        locale={{
          emptyText: (
            <Empty description={t('invoices.list.empty')}>
              {canChange && (
                <Button type="primary" onClick={() => navigate(APPLY_PATH)}>
                  {t('invoices.list.apply')}
                </Button>
              )}
            </Empty>
          ),
        }}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: invoices.data?.total ?? 0,
          onChange: setPageNum,
          showSizeChanger: false,
          hideOnSinglePage: true,
        }}
        columns={[
          { title: t('invoices.list.createdAt'), render: (_, row) => formatDateTime(row.createdAt) },
          {
            title: t('invoices.fields.amount'),
            render: (_, row) => <span className="invoice-amount">¥{fenToYuan(row.amountFen)}</span>,
          },
          { title: t('invoices.fields.type'), render: (_, row) => t(`invoices.types.${row.type}`) },
          { title: t('invoices.list.titleColumn'), render: (_, row) => row.profile.title },
          {
            title: t('invoices.fields.delivery'),
            render: (_, row) => (
              <Flex vertical>
                <span>{t(`invoices.deliveries.${row.delivery}`)}</span>
                {row.postageFen > 0 && (
                  <Typography.Text type="secondary">
                    {t('invoices.list.postagePaid', { postage: fenToYuan(row.postageFen) })}
                  </Typography.Text>
                )}
              </Flex>
            ),
          },
          {
            title: t('invoices.list.status'),
            render: (_, row) => (
              <Flex vertical gap={4}>
                <span>
                  <InvoiceStatusTag status={row.status} />
                </span>
                {row.status === 'rejected' && row.rejectReason && (
                  <Typography.Text type="danger" className="invoice-reject-reason">
                    {t('invoices.list.rejectReason', { reason: row.rejectReason })}
                  </Typography.Text>
                )}
                {row.expressNo && (
                  <Typography.Text className="invoice-express-no" copyable={{ text: row.expressNo }}>
                    {t('invoices.list.expressNo', { expressNo: row.expressNo })}
                  </Typography.Text>
                )}
                {row.status === 'emailed' && row.email && (
                  <Typography.Text type="secondary">
                    {t('invoices.list.emailedTo', { email: row.email })}
                  </Typography.Text>
                )}
              </Flex>
            ),
          },
          {
            title: t('invoices.list.actions'),
            render: (_, row) =>
              canChange && (row.status === 'applied' || row.status === 'rejected') ? (
                <Space size={0}>
                  {row.status === 'rejected' && (
                    <Button
                      type="link"
                      data-testid="invoice-resubmit"
                      onClick={() => navigate(`${APPLY_PATH}?resubmit=${row.id}`)}
                    >
                      {t('invoices.list.resubmit')}
                    </Button>
                  )}
                  <Popconfirm
                    title={t('invoices.list.voidConfirm')}
                    description={t('invoices.list.voidConfirmText', { amount: fenToYuan(row.amountFen) })}
                    okText={t('invoices.list.void')}
                    cancelText={t('invoices.cancel')}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => voiding.mutateAsync(row.id)}
                  >
                    <Button type="link" danger data-testid="invoice-void">
                      {t('invoices.list.void')}
                    </Button>
                  </Popconfirm>
                </Space>
              ) : null,
          },
        ]}
      />
    </Card>
  );
}
