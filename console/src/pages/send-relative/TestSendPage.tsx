import { PERMISSIONS } from '@herald/shared/permissions';
import type { AcceptedRecipientView, TestSendResult } from '@herald/shared/schemas/send.schema';
import {
  testSendParamSchema,
  testSendQuickSchema,
  testSendTemplateSchema,
} from '@herald/shared/schemas/send.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Form, Input, Radio, Result, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fetchDomains } from '../../api/domains.api.ts';
import {
  fetchRecentTestSends,
  fetchTestSendApiUsers,
  sendParamTest,
  sendQuickTest,
  sendTemplateTest,
} from '../../api/test-send.api.ts';
import { Can } from '../../components/Can.tsx';
import { showFormError, zodRule } from '../../components/form-rules.ts';
import { formatDateTime } from '../../components/format-time.ts';

type Mode = 'content' | 'template';

interface Values {
  apiUserId?: number;
  from: string;
  fromName?: string;
  to: string;
  subject?: string;
  html?: string;
  templateInvokeName?: string;
  xsmtpapi?: string;
}

const quick = testSendQuickSchema.shape;
const template = testSendTemplateSchema.shape;
const when = (time: number) => formatDateTime(time);

/**
 * Test send (console-spec §2 /sendRelative/test): send as one of the account's API_USERs, from
 * its sending domain, to at most 5 addresses, with typed content or a passed template; then the
 * accepted emailIds and the newest test recipients with their delivery status.
 */
export default function TestSendPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [mode, setMode] = useState<Mode>('content');
  const [accepted, setAccepted] = useState<TestSendResult | null>(null);
  const apiUsers = useQuery({ queryKey: ['testSend', 'apiUsers'], queryFn: fetchTestSendApiUsers });
  const recent = useQuery({ queryKey: ['testSend', 'recent'], queryFn: fetchRecentTestSends });
  const apiUserId = Form.useWatch('apiUserId', form);
  const domain = apiUsers.data?.find((u) => u.id === apiUserId)?.domain ?? null;

  const send = useMutation({
    mutationFn: async (values: Values) => {
      const base = {
        apiUserId: values.apiUserId as number,
        from: values.from.trim(),
        fromName: values.fromName?.trim() || undefined,
        to: values.to.trim(),
      };
      if (mode === 'template') {
        return sendTemplateTest({
          ...base,
          templateInvokeName: (values.templateInvokeName ?? '').trim(),
          subject: values.subject?.trim() || undefined,
          xsmtpapi: values.xsmtpapi?.trim() || undefined,
        });
      }
      const content = { ...base, subject: values.subject ?? '', html: values.html ?? '' };
      return values.xsmtpapi?.trim()
        ? sendParamTest({ ...content, xsmtpapi: values.xsmtpapi.trim() })
        : sendQuickTest(content);
    },
    onSuccess: async (result) => {
      setAccepted(result);
      await queries.invalidateQueries({ queryKey: ['testSend', 'recent'] });
    },
    onError: (error) => {
      showFormError(form, error);
    },
  });

  if (apiUsers.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const noApiUsers = apiUsers.isSuccess && apiUsers.data.length === 0;

  return (
    <Card className="test-send-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('testSend.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('testSend.intro')}</Typography.Paragraph>
      {noApiUsers ? (
        <NoApiUser />
      ) : (
        <Form<Values>
          form={form}
          layout="vertical"
          style={{ maxWidth: 720 }}
          onFinish={(values) => {
            setAccepted(null);
            send.mutate(values);
          }}
        >
          <Form.Item label={t('testSend.mode')}>
            <Radio.Group
              className="test-send-mode"
              value={mode}
              onChange={(event) => setMode(event.target.value as Mode)}
              options={[
                { value: 'content', label: t('testSend.modeContent') },
                { value: 'template', label: t('testSend.modeTemplate') },
              ]}
            />
          </Form.Item>
          <Form.Item name="apiUserId" label={t('testSend.apiUser')} rules={[zodRule(quick.apiUserId)]}>
            <Select
              className="test-send-api-user"
              loading={apiUsers.isPending}
              placeholder={t('testSend.apiUserPlaceholder')}
              options={(apiUsers.data ?? []).map((u) => ({
                value: u.id,
                label: u.domain ? `${u.name} (${u.domain})` : `${u.name} (${t('testSend.noDomain')})`,
              }))}
            />
          </Form.Item>
          <Form.Item
            name="from"
            label={t('testSend.from')}
            extra={domain ? t('testSend.fromHint', { domain }) : undefined}
            rules={[zodRule(quick.from)]}
          >
            <Input name="from" placeholder={domain ? `service@${domain}` : 'service@example.com'} />
          </Form.Item>
          <Form.Item name="fromName" label={t('testSend.fromName')} rules={[zodRule(quick.fromName)]}>
            <Input name="fromName" maxLength={255} />
          </Form.Item>
          <Form.Item
            name="to"
            label={t('testSend.to')}
            extra={t('testSend.toHint')}
            rules={[zodRule(quick.to)]}
          >
            <Input name="to" placeholder="a@example.com;b@example.com" />
          </Form.Item>
          {mode === 'template' ? (
            <>
              <Form.Item
                name="templateInvokeName"
                label={t('testSend.template')}
                rules={[zodRule(template.templateInvokeName)]}
              >
                <Input name="templateInvokeName" placeholder={t('testSend.templatePlaceholder')} />
              </Form.Item>
              <Form.Item
                name="subject"
                label={t('testSend.subjectOptional')}
                rules={[zodRule(template.subject)]}
              >
                <Input name="subject" />
              </Form.Item>
            </>
          ) : (
            <>
              <Form.Item name="subject" label={t('testSend.subject')} rules={[zodRule(quick.subject)]}>
                <Input name="subject" />
              </Form.Item>
              <Form.Item name="html" label={t('testSend.html')} rules={[zodRule(quick.html)]}>
                <Input.TextArea name="html" rows={6} placeholder="<p>Hello %name%</p>" />
              </Form.Item>
            </>
          )}
          <Form.Item
            name="xsmtpapi"
            label={t('testSend.variables')}
            extra={t('testSend.variablesHint')}
            rules={[zodRule(testSendParamSchema.shape.xsmtpapi)]}
          >
            <Input.TextArea name="xsmtpapi" rows={3} placeholder='{"sub": {"%name%": ["Ann"]}}' />
          </Form.Item>
          <Can code={PERMISSIONS.EMAIL_SEND} level="full">
            <Button type="primary" htmlType="submit" className="test-send-submit" loading={send.isPending}>
              {t('testSend.send')}
            </Button>
          </Can>
        </Form>
      )}
      {accepted && (
        <Alert
          className="test-send-accepted"
          type="success"
          showIcon
          style={{ marginTop: 16 }}
          message={t('testSend.accepted', { count: accepted.emailIdList.length })}
          description={
            <ul style={{ margin: 0, paddingLeft: 20 }}>
              {accepted.emailIdList.map((id) => (
                <li key={id}>
                  <Typography.Text code copyable>
                    {id}
                  </Typography.Text>
                </li>
              ))}
            </ul>
          }
        />
      )}
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('testSend.recent')}
      </Typography.Title>
      <Table<AcceptedRecipientView>
        rowKey="emailId"
        className="test-send-recent"
        size="small"
        loading={recent.isPending}
        dataSource={recent.data ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t('testSend.recentEmpty')} /> }}
        columns={[
          { title: t('testSend.colTime'), render: (_, r) => when(r.createdAt), width: 180 },
          { title: t('testSend.colRecipient'), dataIndex: 'recipient' },
          { title: t('testSend.colSubject'), dataIndex: 'subject' },
          { title: t('testSend.colApiUser'), dataIndex: 'apiUser' },
          {
            title: t('testSend.colStatus'),
            render: (_, r) => (
              <Tag
                className={`test-send-status-${r.status}`}
                color={r.status === 'requested' ? 'blue' : undefined}
              >
                {r.status === 'requested' ? t('testSend.statusRequested') : r.status}
              </Tag>
            ),
          },
          {
            title: t('testSend.colEmailId'),
            render: (_, r) => (
              <Typography.Text copyable={{ text: r.emailId }}>{r.emailId.slice(0, 24)}…</Typography.Text>
            ),
          },
        ]}
      />
    </Card>
  );
}

/**
 * No API_USER to test with: the next step, not a dead end. Creating an API_USER needs a sending
 * domain that can send, so without one the button leads to the domains first.
 */
function NoApiUser() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const domains = useQuery({ queryKey: ['domains', 'list', 'usable'], queryFn: () => fetchDomains(1, 100) });
  const usable = domains.data?.list.some((d) => d.status === 'usable' || d.status === 'verified') ?? false;
  return (
    <Empty
      className="test-send-no-api-users"
      description={usable ? t('testSend.noApiUsers') : t('testSend.noUsableDomain')}
    >
      {domains.isPending ? null : usable ? (
        <Button
          type="primary"
          className="test-send-create-api-user"
          onClick={() => navigate('/sendSetting/apiuser/option')}
        >
          {t('testSend.createApiUser')}
        </Button>
      ) : (
        <Button
          type="primary"
          className="test-send-add-domain"
          onClick={() => navigate('/sendSetting/domain')}
        >
          {t('testSend.addDomain')}
        </Button>
      )}
    </Empty>
  );
}
