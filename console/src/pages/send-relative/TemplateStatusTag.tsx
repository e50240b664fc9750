import type { TemplateStatus } from '@herald/shared/schemas/template.schema';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLOR: Record<TemplateStatus, string> = {
  unsubmitted: 'default',
  reviewing: 'processing',
  passed: 'success',
  rejected: 'error',
};

/** A template's review status (product-spec §4) as a coloured tag. */
export function TemplateStatusTag({ status }: { status: TemplateStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLOR[status]} data-status={status} className="template-status">
      {t(`templates.statusName.${status}`)}
    </Tag>
  );
}
