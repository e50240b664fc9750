import type { SmsPauseAlerts } from '@herald/shared/schemas/sms-protection.schema';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, List, Skeleton, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fetchSmsPauseAlerts } from '../../../api/sms-protection.api.ts';
import { formatDateTime } from '../../../components/format-time.ts';

const ATTACK = '/s_sendSetting/attack';

/** The SMS dashboard's anti-bombing panel: the paused templates and the way to handle them. */
export function SmsPauseAlertsCard({ alerts }: { alerts: SmsPauseAlerts | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card
      title={t('smsPauses.alertsTitle')}
      className="dashboard-sms-alerts"
      style={{ height: '100%' }}
      extra={
        alerts && alerts.open > 0 ? (
          <Button type="link" className="dashboard-sms-alerts-handle" onClick={() => navigate(ATTACK)}>
            {t('smsPauses.handle')}
          </Button>
        ) : null
      }
    >
      {!alerts ? (
        <Skeleton active />
      ) : alerts.open === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('smsPauses.noAlerts')} />
      ) : (
        <List
          size="small"
          dataSource={alerts.pauses}
          renderItem={(p) => (
            <List.Item className="dashboard-sms-alert">
              <Tag color="error">{t('dashboard.alert')}</Tag>
              {t('smsPauses.alertLine', {
                template: `${p.templateName ?? t('smsPauses.deletedTemplate')} (${p.templateId})`,
                at: formatDateTime(p.startedAt),
                count: p.pausedCount,
              })}
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}

/** On the email dashboard: a banner only while an SMS template is paused. */
export function SmsPauseBanner() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const alerts = useQuery({ queryKey: ['smsPauseAlerts'], queryFn: fetchSmsPauseAlerts });
  if (!alerts.data || alerts.data.open === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      className="dashboard-sms-pause-banner"
      message={t('smsPauses.alertBanner', { open: alerts.data.open, held: alerts.data.held })}
      action={
        <Button size="small" onClick={() => navigate(ATTACK)}>
          {t('smsPauses.handle')}
        </Button>
      }
    />
  );
}
