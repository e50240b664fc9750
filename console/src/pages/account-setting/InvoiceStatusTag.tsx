import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { InvoiceStatus } from '../../api/invoices.api.ts';

const STATUS_COLOURS: Record<InvoiceStatus, string> = {
  applied: 'processing',
  invoiced: 'blue',
  shipped: 'success',
  emailed: 'success',
  rejected: 'error',
  voided: 'default',
};

/** An invoice's status as the customer's and the operators' lists show it. */
export function InvoiceStatusTag({ status }: { status: InvoiceStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOURS[status]} className={`invoice-status invoice-status-${status}`}>
      {t(`invoices.statuses.${status}`)}
    </Tag>
  );
}
