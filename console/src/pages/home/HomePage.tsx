import { CloudServerOutlined, LineChartOutlined, MailOutlined, MessageOutlined } from '@ant-design/icons';
import { Button, Card, Typography, theme } from 'antd';
import type { MouseEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { HeraldLogo } from '../../components/HeraldLogo.tsx';
import { LanguageSwitcher } from '../../components/LanguageSwitcher.tsx';
import { HealthBadge } from './HealthBadge.tsx';
import styles from './HomePage.module.css';

interface Feature {
  icon: ReactNode;
  title: string;
  body: string;
}

export default function HomePage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();

  const features: Feature[] = [
    { icon: <MailOutlined />, title: t('home.emailTitle'), body: t('home.emailBody') },
    { icon: <MessageOutlined />, title: t('home.smsTitle'), body: t('home.smsBody') },
    { icon: <LineChartOutlined />, title: t('home.insightTitle'), body: t('home.insightBody') },
    { icon: <CloudServerOutlined />, title: t('home.selfHostedTitle'), body: t('home.selfHostedBody') },
  ];

  const goToLogin = (event: MouseEvent) => {
    event.preventDefault();
    void navigate('/login');
  };

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <div className={styles.brand}>
          <HeraldLogo />
          <span className={styles.brandName}>{t('common.productName')}</span>
        </div>
        <LanguageSwitcher />
      </header>

      <main>
        <section className={styles.hero}>
          <HealthBadge />
          <Typography.Title level={1} className={styles.headline}>
            {t('home.headline')}
          </Typography.Title>
          <Typography.Paragraph className={styles.tagline} type="secondary">
            {t('home.tagline')}
          </Typography.Paragraph>
          <Button type="primary" size="large" href="/login" onClick={goToLogin} className={styles.cta}>
            {t('home.login')}
          </Button>
        </section>

        <section className={styles.features}>
          {features.map((feature) => (
            <Card key={feature.title} variant="borderless" className={styles.feature}>
              <span
                className={styles.featureIcon}
                style={{ color: token.colorPrimary, background: token.colorPrimaryBg }}
              >
                {feature.icon}
              </span>
              <Typography.Title level={5} className={styles.featureTitle}>
                {feature.title}
              </Typography.Title>
              <Typography.Paragraph type="secondary" className={styles.featureBody}>
                {feature.body}
              </Typography.Paragraph>
            </Card>
          ))}
        </section>
      </main>

      <footer className={styles.footer}>{t('home.footer')}</footer>
    </div>
  );
}
