import type { EmailStatus } from '@herald/shared/schemas/suppression.schema';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<EmailStatus, string> = {
  requested: 'blue',
  sending: 'processing',
  deferred: 'orange',
  held: 'default',
  delivered: 'green',
  soft_bounce: 'volcano',
  invalid: 'red',
  deleted: 'default',
};

export function EmailStatusTag({ status }: { status: EmailStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[status]} className={`email-status-${status}`}>
      {t(`emailStatus.statuses.${status}`)}
    </Tag>
  );
}

/** A product-spec §8 reason key in the user's language (unknown keys shown as they are). */
export function useReasonText() {
  const { t } = useTranslation();
  return (reason: string | null) =>
    reason
      ? t(`emailStatus.reasons.${reason}` as 'emailStatus.reasons.other', { defaultValue: reason })
      : '—';
}
