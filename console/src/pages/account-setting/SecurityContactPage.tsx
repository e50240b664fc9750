import { maskEmail, maskPhone } from '@herald/shared/masking';
import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Result, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchUserInfo } from '../../api/user-info.api.ts';

/** Contact information (console-spec §2 /accountSetting/security/contact), masked. */
export default function SecurityContactPage() {
  const { t } = useTranslation();
  const info = useQuery({ queryKey: ['userInfo'], queryFn: fetchUserInfo });

  if (info.isPending) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (info.isError) return <Result status="warning" title={t('common.loadFailed')} />;

  return (
    <Card title={t('security.contactTitle')} className="security-contact-page">
      <Typography.Paragraph type="secondary">{t('security.contactHint')}</Typography.Paragraph>
      <Descriptions column={1}>
        <Descriptions.Item label={t('security.email')}>{maskEmail(info.data.email)}</Descriptions.Item>
        <Descriptions.Item label={t('security.phone')}>
          {info.data.phone ? maskPhone(info.data.phone) : t('security.notSet')}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
