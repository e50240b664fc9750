import { CheckCircleFilled, ClockCircleOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, List, Progress, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fetchGuide, fetchSmsGuide, type GuideStep, type SmsGuideStep } from './dashboard.api.ts';

/** One guide as the card shows it: its steps' order, where each is done, and their texts. */
export interface GuideConfig<K extends string> {
  queryKey: string;
  fetch: () => Promise<{ steps: { key: K; done: boolean }[]; done: number }>;
  /** Which step to do next when several are open (what each needs first), not the list's order. */
  nextOrder: K[];
  links: Record<K, string>;
  title: (key: K) => string;
  hint: (key: K) => string;
  action: (key: K) => string;
}

/**
 * The email guide: a test mail needs an API_USER, which needs a sending domain that can send,
 * so the primary button follows that order.
 */
export function useEmailGuide(): GuideConfig<GuideStep> {
  const { t } = useTranslation();
  return {
    queryKey: 'guide',
    fetch: fetchGuide,
    nextOrder: ['domain', 'apiUser', 'testMail', 'integrate'],
    links: {
      testMail: '/sendRelative/test',
      domain: '/sendSetting/domain',
      apiUser: '/sendSetting/apiuser',
      integrate: '/sendSetting/integration',
    },
    title: (key) => t(`dashboard.steps.${key}`),
    hint: (key) => t(`dashboard.stepHints.${key}`),
    action: (key) => t(`dashboard.actions.${key}`),
  };
}

/** The SMS guide: an SMS_USER, a passed signature, then a passed template, a test SMS, the API. */
export function useSmsGuide(): GuideConfig<SmsGuideStep> {
  const { t } = useTranslation();
  return {
    queryKey: 'smsGuide',
    fetch: fetchSmsGuide,
    nextOrder: ['smsUser', 'sign', 'template', 'testSms', 'integrate'],
    links: {
      smsUser: '/s_sendSetting/empower',
      sign: '/s_sendRelative/sign',
      template: '/s_sendRelative/template',
      testSms: '/s_sendRelative/test',
      integrate: '/docs/api/',
    },
    title: (key) => t(`dashboard.smsSteps.${key}`),
    hint: (key) => t(`dashboard.smsStepHints.${key}`),
    action: (key) => t(`dashboard.smsActions.${key}`),
  };
}

/**
 * The beginner guide (console-spec §2): its steps, each ticked from what the account really has,
 * each with the button that does it; the first step not yet done is the primary one.
 */
export function GuideCard<K extends string>({ guide: config }: { guide: GuideConfig<K> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Asked again every time the dashboard opens: the user has usually just done a step elsewhere.
  const guide = useQuery({
    queryKey: ['dashboard', config.queryKey],
    queryFn: config.fetch,
    refetchOnMount: 'always',
  });
  const steps = guide.data?.steps ?? [];
  const next = config.nextOrder.find((key) => steps.some((step) => step.key === key && !step.done));
  const go = (link: string) => (link.startsWith('/docs/') ? window.open(link, '_blank') : navigate(link));
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
                    onClick={() => go(config.links[step.key])}
                  >
                    {step.done ? t('dashboard.view') : config.action(step.key)}
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
                  title={`${index + 1}. ${config.title(step.key)}`}
                  description={config.hint(step.key)}
                />
              </List.Item>
            )}
          />
        </>
      )}
    </Card>
  );
}
