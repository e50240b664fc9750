import type { SmsTemplateRegion, SmsTemplateSignOption } from '@herald/shared/schemas/sms-template.schema';
import { useQuery } from '@tanstack/react-query';
import { Button, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { fetchSmsTemplateSigns } from '../../api/sms-templates.api.ts';
import { SIGNS_PATH } from './sms-template-paths.ts';

/**
 * The account's signatures of one region (passed, or still under review and marked so), read
 * through `/sms/smsTemplates/signs`; with none, a way to add one. `optional` offers "no signature"
 * (voice templates).
 */
export function SmsSignSelect({
  region,
  value,
  onChange,
  optional = false,
}: {
  region: SmsTemplateRegion;
  value?: number | null;
  onChange?: (value: number | null) => void;
  optional?: boolean;
}) {
  const { t } = useTranslation();
  const signs = useQuery({ queryKey: ['smsTemplates', 'signs'], queryFn: fetchSmsTemplateSigns });
  const options = (signs.data ?? []).filter((s: SmsTemplateSignOption) => s.signType === region);
  if (signs.data && options.length === 0 && !optional) {
    return (
      <Space className="sms-sign-none">
        <Typography.Text type="secondary">{t('smsTemplates.signNone')}</Typography.Text>
        <Link to={SIGNS_PATH}>
          <Button size="small">{t('smsTemplates.signCreate')}</Button>
        </Link>
      </Space>
    );
  }
  return (
    <Select<number | null>
      className="sms-template-sign"
      loading={signs.isPending}
      value={value ?? (optional ? null : undefined)}
      onChange={(v) => onChange?.(v)}
      placeholder={t('smsTemplates.signPlaceholder')}
      options={[
        ...(optional ? [{ value: null, label: t('smsTemplates.signOptional') }] : []),
        ...options.map((s) => ({
          value: s.id,
          label: (
            <span>
              {s.name}
              {s.status !== 'passed' ? (
                <Tag style={{ marginLeft: 8 }}>{t(`smsTemplates.signStatus.${s.status}`)}</Tag>
              ) : null}
            </span>
          ),
        })),
      ]}
    />
  );
}
