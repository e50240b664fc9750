import { smsTestSendSchema, smsVarValueSchema } from '@herald/shared/schemas/sms-send.schema';
import { renderSmsTemplate } from '@herald/shared/sms/sms-content';
import { signedSmsText } from '@herald/shared/sms/sms-count';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Form, Input, Result, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { fetchSmsTestOptions, type SmsTestSendResult, sendSmsTest } from '../../api/sms-messages.api.ts';
import { showFormError, zodRule } from '../../components/form-rules.ts';

interface Values {
  smsUserId?: number;
  templateId?: number;
  phones: string;
  vars?: Record<string, string>;
}

const shape = smsTestSendSchema.shape;

/**
 * SMS test send (console-spec §2 /s_sendRelative/test): one of the account's SMS_USERs sends a
 * passed template to at most 5 numbers, through the same path as the SMS API; without an
 * SMS_USER or a passed template the page says what to do first.
 */
export default function SmsTestSendPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [accepted, setAccepted] = useState<SmsTestSendResult | null>(null);
  const options = useQuery({ queryKey: ['smsTest', 'options'], queryFn: fetchSmsTestOptions });
  const templateId = Form.useWatch('templateId', form);
  const vars = Form.useWatch('vars', form) ?? {};
  const template = options.data?.templates.find((tpl) => tpl.id === templateId);

  const send = useMutation({
    mutationFn: (values: Values) =>
      sendSmsTest({
        smsUserId: values.smsUserId as number,
        templateId: values.templateId as number,
        phones: values.phones,
        vars: Object.fromEntries(Object.entries(values.vars ?? {}).map(([k, v]) => [k, String(v ?? '')])),
      }),
    onSuccess: setAccepted,
    onError: (error) => showFormError(form, error),
  });

  if (options.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const data = options.data;

  return (
    <Card className="sms-test-page" loading={options.isPending}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('smsSend.testTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('smsSend.testIntro')}</Typography.Paragraph>
      {data && data.smsUsers.length === 0 ? (
        <Empty description={t('smsSend.noSmsUser')}>
          <Link to="/s_sendSetting/empower">
            <Button type="primary">{t('smsSend.createSmsUser')}</Button>
          </Link>
        </Empty>
      ) : data && data.templates.length === 0 ? (
        <Empty description={t('smsSend.noTemplate')}>
          <Link to="/s_sendRelative/template">
            <Button type="primary">{t('smsSend.createTemplate')}</Button>
          </Link>
        </Empty>
      ) : data ? (
        <Form<Values>
          form={form}
          layout="vertical"
          style={{ maxWidth: 640 }}
          initialValues={{ smsUserId: data.smsUsers[0]?.id, phones: '' }}
          onFinish={(values) => {
            setAccepted(null);
            send.mutate(values);
          }}
        >
          <Form.Item name="smsUserId" label={t('smsSend.smsUser')} rules={[zodRule(shape.smsUserId)]}>
            <Select
              className="sms-test-user"
              options={data.smsUsers.map((u) => ({
                value: u.id,
                label: (
                  <>
                    {u.name} {u.cType === 'test' ? <Tag>{t('smsSend.testUser')}</Tag> : null}
                  </>
                ),
              }))}
            />
          </Form.Item>
          <Form.Item name="templateId" label={t('smsSend.template')} rules={[zodRule(shape.templateId)]}>
            <Select
              className="sms-test-template"
              showSearch
              optionFilterProp="title"
              onChange={(id: number) => {
                const chosen = data.templates.find((tpl) => tpl.id === id);
                form.setFieldValue('vars', { ...(chosen?.variables ?? {}) });
              }}
              options={data.templates.map((tpl) => ({
                value: tpl.id,
                title: tpl.name,
                label: `${tpl.name} (${t(`smsSend.kinds.${tpl.kind}`)})`,
              }))}
            />
          </Form.Item>
          {template
            ? Object.keys(template.variables).map((name) => (
                <Form.Item
                  key={name}
                  name={['vars', name]}
                  label={`${t('smsSend.variables')} %${name}%`}
                  rules={[zodRule(smsVarValueSchema)]}
                >
                  <Input className={`sms-test-var-${name}`} maxLength={32} />
                </Form.Item>
              ))
            : null}
          <Form.Item
            name="phones"
            label={t('smsSend.phones')}
            extra={t('smsSend.phonesHint')}
            rules={[zodRule(shape.phones)]}
          >
            <Input className="sms-test-phones" placeholder="13800138000;13900139000" />
          </Form.Item>
          {template ? (
            <Form.Item label={t('smsSend.preview')}>
              <div className="sms-test-preview sms-bubble">
                {signedSmsText(renderSmsTemplate(template.content, vars), template.signName, template.region)}
              </div>
            </Form.Item>
          ) : null}
          <Button type="primary" htmlType="submit" loading={send.isPending} className="sms-test-send">
            {t('smsSend.send')}
          </Button>
        </Form>
      ) : null}
      {accepted ? (
        <Alert
          className="sms-test-result"
          style={{ marginTop: 24 }}
          type={accepted.failed.length ? 'warning' : 'success'}
          message={t('smsSend.sent', { count: accepted.smsIds.length })}
          description={
            <Space direction="vertical">
              {accepted.failed.map((f) => (
                <span key={f.phone}>{t('smsSend.failedNumber', f)}</span>
              ))}
              <Link to="/s_sendResponse/smsStatus">{t('smsSend.toStatus')}</Link>
            </Space>
          }
        />
      ) : null}
    </Card>
  );
}
