import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Empty, Modal, Skeleton, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fetchReceipt, fetchReceipts, type ReceiptView } from '../../api/trade.api.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { fenToYuan } from '../../components/money.ts';

const PAGE_SIZE = 10;
const PRINT_ONLY_RECEIPT = `@media print {
  body * { visibility: hidden; }
  .receipt-modal, .receipt-modal * { visibility: visible; }
  .receipt-modal { position: absolute; inset: 0 auto auto 0; }
  .receipt-modal .ant-modal-footer, .receipt-modal .ant-modal-close { display: none; }
}`;

/**
 * Receipts (console-spec §2 /accountSetting/trade/receipt): the account's paid recharges, each
 * with a printable receipt (number, paying account, amount in figures and, in Chinese, in capital
 * numerals, method, time).
 */
export default function ReceiptsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [pageNum, setPageNum] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const receipts = useQuery({
    queryKey: ['trade', 'receipts', pageNum],
    queryFn: () => fetchReceipts({ pageNum, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <Card title={t('trade.receiptsTitle')} className="receipts-page">
      <Typography.Paragraph type="secondary">{t('trade.receiptsHint')}</Typography.Paragraph>
      <Table<ReceiptView>
        rowKey="orderNo"
        className="receipts"
        loading={receipts.isPending}
        dataSource={receipts.data?.list ?? []}
        scroll={{ x: true }}
        locale={{
          emptyText: (
            <Empty description={t('trade.noReceipts')}>
              <Button type="primary" onClick={() => navigate('/accountSetting/financialMangement/charge')}>
                {t('trade.goCharge')}
              </Button>
            </Empty>
          ),
        }}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: receipts.data?.total ?? 0,
          onChange: setPageNum,
          showSizeChanger: false,
          hideOnSinglePage: true,
        }}
        columns={[
          { title: t('trade.orderNo'), dataIndex: 'orderNo' },
          { title: t('trade.amount'), align: 'right', render: (_, r) => `¥${fenToYuan(r.amountFen)}` },
          { title: t('trade.method'), render: (_, r) => t(`trade.channels.${r.channel}`) },
          { title: t('trade.paidAt'), render: (_, r) => formatDateTime(r.paidAt) },
          {
            title: '',
            render: (_, r) => (
              <Button type="link" className="receipt-view" onClick={() => setOpen(r.orderNo)}>
                {t('trade.view')}
              </Button>
            ),
          },
        ]}
      />
      {open && <ReceiptModal orderNo={open} onClose={() => setOpen(null)} />}
    </Card>
  );
}

function ReceiptModal({ orderNo, onClose }: { orderNo: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const receipt = useQuery({ queryKey: ['trade', 'receipt', orderNo], queryFn: () => fetchReceipt(orderNo) });
  const r = receipt.data;
  return (
    <Modal
      open
      title={t('trade.receipt')}
      onCancel={onClose}
      className="receipt-modal printable"
      footer={[
        <Button key="close" onClick={onClose}>
          {t('trade.close')}
        </Button>,
        <Button
          key="print"
          type="primary"
          className="receipt-print"
          disabled={!r}
          onClick={() => window.print()}
        >
          {t('trade.print')}
        </Button>,
      ]}
    >
      {/* Printing shows the receipt alone, not the console around it. */}
      <style>{PRINT_ONLY_RECEIPT}</style>
      {r ? (
        <Descriptions column={1} bordered size="small" className="receipt">
          <Descriptions.Item label={t('trade.orderNo')}>{r.orderNo}</Descriptions.Item>
          <Descriptions.Item label={t('trade.payer')}>{r.account}</Descriptions.Item>
          <Descriptions.Item label={t('trade.amountFigures')}>¥{fenToYuan(r.amountFen)}</Descriptions.Item>
          {i18n.language !== 'en' && (
            <Descriptions.Item label={t('trade.amountCapital')}>{r.amountCapital}</Descriptions.Item>
          )}
          <Descriptions.Item label={t('trade.method')}>{t(`trade.channels.${r.channel}`)}</Descriptions.Item>
          {r.providerTxnId && <Descriptions.Item label={t('trade.txn')}>{r.providerTxnId}</Descriptions.Item>}
          <Descriptions.Item label={t('trade.paidAt')}>{formatDateTime(r.paidAt)}</Descriptions.Item>
        </Descriptions>
      ) : (
        <Skeleton active />
      )}
    </Modal>
  );
}
