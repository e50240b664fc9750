import {
  API_KEY_PLACEHOLDER,
  SAMPLE_LANGUAGES,
  type SampleLanguage,
  sendSamples,
} from '@herald/shared/samples/send-samples';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Empty,
  Flex,
  Result,
  Select,
  Skeleton,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type ApiUserView, fetchApiUsers } from '../../api/api-users.api.ts';
import { fetchIntegration } from '../../api/integration.api.ts';

const SAMPLE_NAMES: Record<SampleLanguage, string> = {
  curl: 'curl',
  node: 'Node.js',
  python: 'Python',
  java: 'Java',
  php: 'PHP',
  go: 'Go',
};

/**
 * What a developer needs to send from their own code (reached from the dashboard guide and the
 * send-settings menu): the API base URL and the SMTP host and ports of this deployment, the
 * account's API_USERs with their type and domain, each to copy, and a first `mail/send` in six
 * languages filled in with the chosen API_USER. Never its key: the samples say where it goes.
 */
export default function IntegrationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const integration = useQuery({ queryKey: ['integration'], queryFn: fetchIntegration });
  const apiUsers = useQuery({ queryKey: ['apiUsers', 'list'], queryFn: fetchApiUsers });
  const [chosen, setChosen] = useState<number | null>(null);

  if (integration.isError || apiUsers.isError)
    return <Result status="warning" title={t('common.loadFailed')} />;
  if (integration.isPending || apiUsers.isPending) return <Skeleton active />;
  const view = integration.data;
  const users = apiUsers.data;
  const user: ApiUserView | undefined = users.find((u) => u.id === chosen) ?? users[0];
  const samples = user
    ? sendSamples({
        baseUrl: view.apiBaseUrl,
        apiUser: user.name,
        from: `service@${user.domainName ?? 'your-domain.example'}`,
        to: 'recipient@example.com',
        subject: t('integration.sampleSubject'),
        html: t('integration.sampleHtml'),
      })
    : null;

  return (
    <Flex vertical gap="middle" className="integration-page">
      <Card title={t('integration.title')}>
        <Typography.Paragraph type="secondary">{t('integration.intro')}</Typography.Paragraph>
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label={t('integration.apiBase')}>
            <Typography.Text copyable className="integration-api-base">
              {`${view.apiBaseUrl}/apiv2/`}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('integration.smtpHost')}>
            <Typography.Text copyable className="integration-smtp-host">
              {view.smtpHost}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('integration.smtpPorts')}>
            <Flex vertical gap={4} className="integration-smtp-ports">
              {view.smtpPorts.map((p) => (
                <span key={p.port}>
                  <Typography.Text copyable strong>
                    {String(p.port)}
                  </Typography.Text>{' '}
                  <Typography.Text type="secondary">
                    {t(`integration.security.${p.security}`)}
                  </Typography.Text>
                </span>
              ))}
            </Flex>
          </Descriptions.Item>
          <Descriptions.Item label={t('integration.smtpAuth')}>
            {t('integration.smtpAuthHint')}
          </Descriptions.Item>
          <Descriptions.Item label={t('integration.docs')}>
            <a href={view.docsUrl} target="_blank" rel="noreferrer" className="integration-docs-link">
              {t('integration.docsLink')}
            </a>
          </Descriptions.Item>
        </Descriptions>
      </Card>

      <Card title={t('integration.apiUsers')}>
        {users.length === 0 ? (
          <Empty description={t('integration.noApiUser')}>
            <Button
              type="primary"
              className="integration-create-api-user"
              onClick={() => navigate('/sendSetting/apiuser/option')}
            >
              {t('integration.createApiUser')}
            </Button>
          </Empty>
        ) : (
          <Table<ApiUserView>
            rowKey="id"
            size="small"
            pagination={false}
            className="integration-api-users"
            dataSource={users}
            scroll={{ x: true }}
            columns={[
              {
                title: t('integration.apiUser'),
                render: (_, u) => (
                  <Typography.Text copyable className="nowrap">
                    {u.name}
                  </Typography.Text>
                ),
              },
              {
                title: t('integration.type'),
                render: (_, u) => (
                  <Tag color={u.emailType === 'trigger' ? 'blue' : 'purple'}>
                    {u.emailType === 'trigger' ? t('apiUsers.typeTrigger') : t('apiUsers.typeBatch')}
                  </Tag>
                ),
              },
              {
                title: t('integration.domain'),
                render: (_, u) =>
                  u.domainName ? (
                    <Typography.Text copyable className="nowrap">
                      {u.domainName}
                    </Typography.Text>
                  ) : (
                    '—'
                  ),
              },
            ]}
          />
        )}
      </Card>

      {user && samples && (
        <Card
          title={t('integration.samples')}
          extra={
            <Select<number>
              className="integration-sample-user"
              value={user.id}
              onChange={setChosen}
              style={{ minWidth: 220 }}
              options={users.map((u) => ({ value: u.id, label: u.name }))}
            />
          }
        >
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('integration.keyHint', { placeholder: API_KEY_PLACEHOLDER })}
          />
          <Tabs
            className="integration-samples"
            items={SAMPLE_LANGUAGES.map((language) => ({
              key: language,
              label: SAMPLE_NAMES[language],
              children: (
                <div className={`integration-sample integration-sample-${language}`}>
                  <Typography.Paragraph copyable={{ text: samples[language] }} style={{ marginBottom: 0 }}>
                    <pre className="integration-sample-code" style={{ whiteSpace: 'pre', overflowX: 'auto' }}>
                      {samples[language]}
                    </pre>
                  </Typography.Paragraph>
                </div>
              ),
            }))}
          />
        </Card>
      )}
    </Flex>
  );
}
