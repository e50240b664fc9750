import type { DailyQuotaView } from '@herald/shared/schemas/plan.schema';
import { Flex, Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * Today's emails against the daily limit ("today 3 of 10"), shown before the limit is reached;
 * at the limit it says what to do. Nothing for an account without a limit.
 */
export function QuotaUsage({ quota }: { quota: DailyQuotaView }) {
  const { t } = useTranslation();
  if (quota.limit === null) return null;
  const full = quota.used >= quota.limit;
  return (
    <Flex vertical gap={2} className="dashboard-quota" data-used={quota.used} data-limit={quota.limit}>
      <Flex align="center" gap={8}>
        <Typography.Text className="dashboard-quota-text">
          {t('dashboard.quotaToday', { used: quota.used, limit: quota.limit })}
        </Typography.Text>
        <Progress
          percent={Math.min(100, Math.round((quota.used / quota.limit) * 100))}
          status={full ? 'exception' : 'normal'}
          showInfo={false}
          size="small"
          style={{ width: 120, margin: 0 }}
        />
      </Flex>
      {quota.raise && (
        <Typography.Text type="secondary" className="dashboard-quota-raise">
          {t('dashboard.quotaRaise', { extra: quota.raise.extra, until: quota.raise.toDay })}
        </Typography.Text>
      )}
      {full && (
        <Typography.Text type="danger" className="dashboard-quota-full">
          {t(quota.plan === 'free' ? 'dashboard.quotaFullFree' : 'dashboard.quotaFull')}
        </Typography.Text>
      )}
    </Flex>
  );
}
