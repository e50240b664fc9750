import type { SmsTemplateStatus } from '@herald/shared/schemas/sms-template.schema';
import { Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

const COLOR: Record<SmsTemplateStatus, string> = {
  unsubmitted: 'default',
  reviewing: 'processing',
  passed: 'success',
  rejected: 'error',
};

/** A template's review state as a coloured tag, with the operator's reason under a rejection. */
export function SmsTemplateStatusTag({
  status,
  reason,
}: {
  status: SmsTemplateStatus;
  reason?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={4} align="start">
      <Tag color={COLOR[status]} className="sms-template-status" data-status={status}>
        {t(`smsTemplates.status.${status}`)}
      </Tag>
      {status === 'rejected' && reason ? (
        <Typography.Text type="danger" className="sms-template-reason">
          {t('smsTemplates.rejectReason', { reason })}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}
