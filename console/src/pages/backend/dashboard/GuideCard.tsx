import { CheckCircleFilled, ClockCircleOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, List, Progress, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fetchGuide, type GuideStep } from './dashboard.api.ts';

/**
 * Which step to do next when several are open: a test mail needs an API_USER, which needs a
 * sending domain that can send, so the primary button follows that order, not the list's.
 */
const NEXT_ORDER: GuideStep[] = ['domain', 'apiUser', 'testMail', 'integrate'];

/** Where each step is done. */
const LINKS: Record<GuideStep, string> = {
  testMail: '/sendRelative/test',
  domain: '/sendSetting/domain',
  apiUser: '/sendSetting/apiuser',
  integrate: '/sendSetting/integration',
};

/**
 * The beginner guide (console-spec §2): four steps, each ticked from what the account really has,
 * each with the button that does it; the first step not yet done is the primary one.
 */
export function GuideCard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Asked again every time the dashboard opens: the user has usually just done a step elsewhere.
  const guide = useQuery({ queryKey: ['dashboard', 'guide'], queryFn: fetchGuide, refetchOnMount: 'always' });
  const steps = guide.data?.steps ?? [];
  const next = NEXT_ORDER.find((key) => steps.some((step) => step.key === key && !step.done));
  return (
    <Card title={t('dashboard.guideTitle')} className="dashboard-guide">
      {guide.isLoading ? (
        <Skeleton active />
      ) : guide.isError ? (
        <Typography.Text type="secondary">{t('common.loadFailed')}</Typography.Text>
      ) : (
        <>
          <Progress percent={Math.round(((guide.data?.done ?? 0) / Math.max(steps.length, 1)) * 100)} />
          <List
            dataSource={steps}
            renderItem={(step, index) => (
              <List.Item
                className={`guide-step guide-step-${step.key}`}
                data-done={step.done ? 'true' : 'false'}
                actions={[
                  <Button
                    key="go"
                    type={step.key === next ? 'primary' : 'default'}
                    className={`guide-action guide-action-${step.key}`}
                    onClick={() => navigate(LINKS[step.key])}
                  >
                    {step.done ? t('dashboard.view') : t(`dashboard.actions.${step.key}`)}
                  </Button>,
                ]}
              >
                <List.Item.Meta
                  avatar={
                    step.done ? (
                      <CheckCircleFilled
                        style={{ color: '#52c41a', fontSize: 20 }}
                        aria-label={t('dashboard.done')}
                      />
                    ) : (
                      <ClockCircleOutlined style={{ fontSize: 20 }} aria-label={t('dashboard.todo')} />
                    )
                  }
                  title={`${index + 1}. ${t(`dashboard.steps.${step.key}`)}`}
                  description={t(`dashboard.stepHints.${step.key}`)}
                />
              </List.Item>
            )}
          />
        </>
      )}
    </Card>
  );
}
