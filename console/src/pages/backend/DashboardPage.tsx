import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { FiguresCards } from './dashboard/FiguresCards.tsx';
import { GuideCard, useEmailGuide, useSmsGuide } from './dashboard/GuideCard.tsx';
import { SmsFiguresCards } from './dashboard/SmsFiguresCards.tsx';
import { SmsPauseBanner } from './dashboard/SmsPauseAlerts.tsx';

/**
 * The dashboard (console-spec §2 /backend/dashborad and /backend/s_dashborad, one view in the
 * email or SMS theme): the channel's beginner guide, today's figures, the trend and the
 * anti-bombing alerts; for email also the reputation, and a banner while an SMS template is
 * paused.
 */
export default function DashboardPage() {
  const { t } = useTranslation();
  const sms = useLocation().pathname.includes('s_dashborad');
  const emailGuide = useEmailGuide();
  const smsGuide = useSmsGuide();
  return (
    <Flex vertical gap={16} className={`dashboard-page dashboard-${sms ? 'sms' : 'email'}`}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t(sms ? 'dashboard.smsTitle' : 'dashboard.emailTitle')}
      </Typography.Title>
      {sms ? (
        <>
          <GuideCard guide={smsGuide} />
          <SmsFiguresCards />
        </>
      ) : (
        <>
          <SmsPauseBanner />
          <GuideCard guide={emailGuide} />
          <FiguresCards />
        </>
      )}
    </Flex>
  );
}
