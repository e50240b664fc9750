import { Button, Card, Flex, Form, Input, InputNumber, Segmented, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type BodyFormat, http, type Method } from '../../infra/http/http-client.ts';
import { HttpError, isCancelled } from '../../infra/http/http-errors.ts';

/**
 * A troubleshooting screen, outside every menu: sends a request through the console's real HTTP
 * client and lists what each call resolved or rejected with, while the client's own status
 * handling (toasts, /login, /activate) happens as it would anywhere. Support can ask a user to
 * open it; the browser tests use it to drive the client without a test-only build or globals.
 */
interface Outcome {
  id: number;
  kind: 'resolved' | 'cancelled' | 'failed';
  detail: string;
}

interface Values {
  method: Method;
  path: string;
  params: string;
  format: BodyFormat;
  count: number;
}

const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const FORMATS: BodyFormat[] = ['form', 'json', 'multipart'];

let nextId = 1;

function describe(error: unknown): Pick<Outcome, 'kind' | 'detail'> {
  if (isCancelled(error)) return { kind: 'cancelled', detail: error.message };
  if (error instanceof HttpError) return { kind: 'failed', detail: `${error.status} ${error.message}` };
  return {
    kind: 'failed',
    detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
  };
}

export default function HttpDiagnosticsPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);

  const record = (outcome: Omit<Outcome, 'id'>) =>
    setOutcomes((list) => [{ id: nextId++, ...outcome }, ...list].slice(0, 50));

  const send = (values: Values) => {
    let params: Record<string, unknown> | undefined;
    if (values.params.trim()) {
      const parsed: unknown = JSON.parse(values.params);
      params = parsed as Record<string, unknown>;
    }
    for (let i = 0; i < values.count; i++) {
      http
        .request(values.method, values.path, { params, format: values.format })
        .then((body) => record({ kind: 'resolved', detail: JSON.stringify(body ?? null) }))
        .catch((error: unknown) => record(describe(error)));
    }
  };

  return (
    <Flex justify="center" align="start" style={{ padding: 24, minHeight: '100vh', background: '#f5f7fb' }}>
      <Card title={t('routes.httpDiagnostics')} style={{ width: '100%', maxWidth: 760 }}>
        <Typography.Paragraph type="secondary">{t('diagnostics.intro')}</Typography.Paragraph>
        <Form<Values>
          form={form}
          layout="vertical"
          initialValues={{ method: 'GET', path: '/userInfo', params: '', format: 'form', count: 1 }}
          onFinish={send}
        >
          <Form.Item name="method" label={t('diagnostics.method')}>
            <Segmented<Method> options={METHODS} data-testid="diag-method" />
          </Form.Item>
          <Form.Item name="path" label={t('diagnostics.path')} rules={[{ required: true }]}>
            <Input data-testid="diag-path" />
          </Form.Item>
          <Form.Item
            name="params"
            label={t('diagnostics.params')}
            rules={[
              {
                validator: async (_, value: string) => {
                  if (!value?.trim()) return;
                  const parsed: unknown = JSON.parse(value);
                  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
                    throw new Error();
                },
                message: t('diagnostics.invalidParams'),
              },
            ]}
          >
            <Input.TextArea rows={3} data-testid="diag-params" />
          </Form.Item>
          <Flex gap={16} wrap align="end">
            <Form.Item name="format" label={t('diagnostics.format')}>
              <Segmented<BodyFormat> options={FORMATS} data-testid="diag-format" />
            </Form.Item>
            <Form.Item name="count" label={t('diagnostics.count')}>
              <InputNumber min={1} max={5} data-testid="diag-count" />
            </Form.Item>
            <Form.Item>
              <Button type="primary" htmlType="submit" data-testid="diag-send">
                {t('diagnostics.send')}
              </Button>
            </Form.Item>
          </Flex>
        </Form>
        <Typography.Title level={5}>{t('diagnostics.results')}</Typography.Title>
        {outcomes.length === 0 && (
          <Typography.Text type="secondary">{t('diagnostics.noResults')}</Typography.Text>
        )}
        <Flex vertical gap={8} data-testid="diag-results">
          {outcomes.map((outcome) => (
            <div key={outcome.id} data-testid="diag-result" data-outcome={outcome.kind}>
              <Tag
                color={
                  outcome.kind === 'resolved' ? 'success' : outcome.kind === 'cancelled' ? 'default' : 'error'
                }
              >
                {t(`diagnostics.${outcome.kind}`)}
              </Tag>
              <Typography.Text code>{outcome.detail}</Typography.Text>
            </div>
          ))}
        </Flex>
      </Card>
    </Flex>
  );
}
