import { Card, Empty, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { FiguresCards } from './dashboard/FiguresCards.tsx';
import { GuideCard } from './dashboard/GuideCard.tsx';

/**
 * The dashboard (console-spec §2 /backend/dashborad and /backend/s_dashborad, one view in the
 * email or SMS theme): for email, the beginner guide, today's figures, the trend, the reputation
 * and the anti-bombing alerts; SMS has no data yet and says so.
 */
export default function DashboardPage() {
  const { t } = useTranslation();
  const sms = useLocation().pathname.includes('s_dashborad');
  return (
    <Flex vertical gap={16} className={`dashboard-page dashboard-${sms ? 'sms' : 'email'}`}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t(sms ? 'dashboard.smsTitle' : 'dashboard.emailTitle')}
      </Typography.Title>
      {sms ? (
        <Card className="dashboard-sms-empty">
          <Empty description={t('dashboard.smsEmpty')} />
        </Card>
      ) : (
        <>
          <GuideCard />
          <FiguresCards />
        </>
      )}
    </Flex>
  );
}
