import { PERMISSIONS } from '@herald/shared/permissions';
import { SSL_MIN_VALID_DAYS, sslInputSchema } from '@herald/shared/schemas/tracking.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Form, Input, Popconfirm, Result, Select, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  addSslCertificate,
  deleteSslCertificate,
  fetchSslCertificates,
  type SslCertificateView,
  type TrackDomainView,
} from '../../../api/tracking.api.ts';
import { Can } from '../../../components/Can.tsx';
import { checkWithSchema, showFormError, zodRule } from '../../../components/form-rules.ts';
import { formatDateTime } from '../../../components/format-time.ts';
import { useFormSave } from '../../../components/use-form-save.ts';
import { httpEffects } from '../../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../../infra/http/http-exceptions.ts';

const DAY_MS = 86_400_000;

/**
 * HTTPS certificates of the tracking domains (console-spec §7 "/config/ssl"): upload a PEM
 * certificate and private key for one of the domains (the server checks them), see expiry,
 * delete with confirmation. The key is never shown again.
 */
export function SslCertificatesCard({
  domains,
  onChanged,
}: {
  domains: TrackDomainView[];
  onChanged: () => unknown;
}) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [form] = Form.useForm<{ domain: string; certificate: string; privateKey: string }>();
  const certificates = useQuery({ queryKey: ['sslCertificates'], queryFn: fetchSslCertificates });
  const refresh = async () => {
    await queries.invalidateQueries({ queryKey: ['sslCertificates'] });
    await onChanged();
  };
  const remove = useMutation({ mutationFn: deleteSslCertificate, onSettled: refresh });

  const { submit: upload, saving } = useFormSave(
    async (values: { domain: string; certificate: string; privateKey: string }) => {
      if (!checkWithSchema(form, sslInputSchema, values)) return;
      await addSslCertificate(values);
      httpEffects().toast('success', t('http.operationSucceeded'), SUCCESS_TOAST_SECONDS);
      form.resetFields();
      await refresh();
    },
    (error) => {
      showFormError(form, error);
    },
  );

  const expiry = (c: SslCertificateView) => {
    const days = Math.floor((c.validTo - Date.now()) / DAY_MS);
    const color = days <= 0 ? 'red' : days <= SSL_MIN_VALID_DAYS * 4 ? 'orange' : 'green';
    return (
      <>
        {formatDateTime(c.validTo)}{' '}
        <Tag color={color}>{days <= 0 ? t('tracking.expired') : t('tracking.daysLeft', { count: days })}</Tag>
      </>
    );
  };

  return (
    <Card className="ssl-certificates" title={t('tracking.sslTitle')} style={{ marginTop: 16 }}>
      <Typography.Paragraph type="secondary">
        {t('tracking.sslIntro', { days: SSL_MIN_VALID_DAYS })}
      </Typography.Paragraph>
      <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
        <Form form={form} layout="vertical" onFinish={upload} className="ssl-form" style={{ maxWidth: 720 }}>
          <Form.Item
            name="domain"
            label={t('tracking.sslDomain')}
            rules={[zodRule(sslInputSchema.shape.domain)]}
          >
            <Select
              className="ssl-domain"
              placeholder={t('tracking.sslDomainRequired')}
              options={domains.map((d) => ({ value: d.name, label: d.name }))}
              notFoundContent={t('tracking.sslNoDomains')}
            />
          </Form.Item>
          <Form.Item name="certificate" label={t('tracking.sslCertificate')}>
            <Input.TextArea
              name="certificate"
              rows={4}
              placeholder="-----BEGIN CERTIFICATE-----"
              spellCheck={false}
            />
          </Form.Item>
          <Form.Item name="privateKey" label={t('tracking.sslPrivateKey')}>
            <Input.TextArea
              name="privateKey"
              rows={4}
              placeholder="-----BEGIN PRIVATE KEY-----"
              spellCheck={false}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={saving} className="ssl-upload">
            {t('tracking.sslUpload')}
          </Button>
        </Form>
      </Can>
      {certificates.isError ? (
        <Result status="warning" title={t('common.loadFailed')} />
      ) : (
        <Table<SslCertificateView>
          rowKey="id"
          className="ssl-table"
          style={{ marginTop: 16 }}
          loading={certificates.isPending}
          dataSource={certificates.data ?? []}
          pagination={false}
          locale={{ emptyText: <Empty description={t('tracking.sslEmpty')} /> }}
          columns={[
            { title: t('tracking.sslDomain'), dataIndex: 'domain' },
            { title: t('tracking.sslIssuer'), dataIndex: 'issuer', ellipsis: true },
            { title: t('tracking.sslExpiry'), render: (_, c) => expiry(c) },
            {
              title: t('tracking.actions'),
              render: (_, c) => (
                <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full" fallback="—">
                  <Popconfirm
                    title={t('tracking.sslDeleteConfirm', { name: c.domain })}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => remove.mutateAsync(c.id)}
                  >
                    <Button type="link" danger className="ssl-delete">
                      {t('tracking.delete')}
                    </Button>
                  </Popconfirm>
                </Can>
              ),
            },
          ]}
        />
      )}
    </Card>
  );
}
