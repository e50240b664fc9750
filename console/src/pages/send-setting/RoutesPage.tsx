import { PERMISSIONS } from '@herald/shared/permissions';
import { type MailRouteInput, mailRouteInputSchema } from '@herald/shared/schemas/mail-route.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Empty,
  Form,
  Input,
  Modal,
  Popconfirm,
  Radio,
  Result,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchDomains } from '../../api/domains.api.ts';
import {
  createMailRoute,
  deleteMailRoute,
  fetchMailRoutes,
  type MailRouteView,
  sendMailRouteCode,
} from '../../api/mail-routes.api.ts';
import { Can } from '../../components/Can.tsx';
import { showFormError, zodRule } from '../../components/form-rules.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';

const fields = mailRouteInputSchema.shape;

/**
 * Receive routes (console call `/config/routes`; product-spec §3): mail arriving at Herald for
 * the account's verified domains, matched by address, posted to a URL or forwarded to a mailbox
 * that proved itself with a code. The list, adding one, and deleting one after a confirmation.
 */
export default function RoutesPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [form] = Form.useForm<MailRouteInput>();
  const [adding, setAdding] = useState(false);
  const target = Form.useWatch('target', form);
  const routes = useQuery({ queryKey: ['mailRoutes'], queryFn: fetchMailRoutes });
  const domains = useQuery({
    queryKey: ['domains', 'all'],
    queryFn: () => fetchDomains(1, 100),
    enabled: adding,
  });
  const reload = () => queries.invalidateQueries({ queryKey: ['mailRoutes'] });
  const create = useMutation({
    mutationFn: createMailRoute,
    onSuccess: async () => {
      setAdding(false);
      form.resetFields();
      httpEffects().toast('success', t('mailRoutes.created'), SUCCESS_TOAST_SECONDS);
      await reload();
    },
    onError: (error) => showFormError(form, error),
  });
  const remove = useMutation({ mutationFn: deleteMailRoute, onSuccess: reload });
  const sendCode = useMutation({
    mutationFn: () => sendMailRouteCode(String(form.getFieldValue('email') ?? '')),
    onSuccess: () => httpEffects().toast('success', t('mailRoutes.codeSent'), SUCCESS_TOAST_SECONDS),
    onError: (error) => showFormError(form, error),
  });

  if (routes.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const addButton = (
    <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
      <Button type="primary" className="mail-route-add" onClick={() => setAdding(true)}>
        {t('mailRoutes.add')}
      </Button>
    </Can>
  );
  const usable = (domains.data?.list ?? []).filter((d) => d.status === 'usable' || d.status === 'verified');
  return (
    <Card className="mail-routes-page">
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {t('mailRoutes.title')}
        </Typography.Title>
        {addButton}
      </Space>
      <Typography.Paragraph type="secondary">{t('mailRoutes.intro')}</Typography.Paragraph>
      <Table<MailRouteView>
        rowKey="id"
        className="mail-routes-table"
        loading={routes.isFetching}
        dataSource={routes.data ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t('mailRoutes.empty')}>{addButton}</Empty> }}
        columns={[
          { title: t('mailRoutes.domain'), dataIndex: 'domain' },
          {
            title: t('mailRoutes.rule'),
            render: (_, r) =>
              `${r.expression === '*' ? t('mailRoutes.everyAddress') : r.expression}@${r.domain}`,
          },
          {
            title: t('mailRoutes.target'),
            render: (_, r) => (
              <>
                <Tag>{t(`mailRoutes.targets.${r.target}`)}</Tag>
                {r.url ?? r.email}
              </>
            ),
          },
          { title: t('mailRoutes.createdAt'), render: (_, r) => formatDateTime(r.createdAt) },
          {
            title: '',
            render: (_, r) => (
              <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
                <Popconfirm
                  title={t('mailRoutes.deleteConfirm')}
                  onConfirm={() => remove.mutateAsync(r.id)}
                  okButtonProps={{ className: 'mail-route-delete-ok' }}
                >
                  <Button type="link" danger className="mail-route-delete">
                    {t('mailRoutes.delete')}
                  </Button>
                </Popconfirm>
              </Can>
            ),
          },
        ]}
      />
      <Modal
        open={adding}
        title={t('mailRoutes.add')}
        onCancel={() => setAdding(false)}
        onOk={() => form.submit()}
        confirmLoading={create.isPending}
        okButtonProps={{ className: 'mail-route-save' }}
        className="mail-route-modal"
        forceRender
      >
        <Form<MailRouteInput>
          form={form}
          layout="vertical"
          initialValues={{ match: 'prefix', target: 'url' }}
          onFinish={(values) => create.mutate(values)}
        >
          <Form.Item
            name="domain"
            label={t('mailRoutes.domain')}
            rules={[{ required: true, message: t('mailRoutes.domainRequired') }]}
            extra={t('mailRoutes.domainHint')}
          >
            <Select
              className="mail-route-domain"
              loading={domains.isPending}
              options={usable.map((d) => ({ value: d.name, label: d.name }))}
              notFoundContent={t('mailRoutes.noDomain')}
            />
          </Form.Item>
          <Form.Item name="match" label={t('mailRoutes.match')}>
            <Radio.Group
              options={[
                { value: 'prefix', label: t('mailRoutes.matches.prefix') },
                { value: 'pattern', label: t('mailRoutes.matches.pattern') },
              ]}
            />
          </Form.Item>
          <Form.Item
            name="expression"
            label={t('mailRoutes.expression')}
            rules={[zodRule(fields.expression)]}
            extra={t('mailRoutes.expressionHint')}
          >
            <Input className="mail-route-expression" />
          </Form.Item>
          <Form.Item name="target" label={t('mailRoutes.target')}>
            <Radio.Group
              options={[
                { value: 'url', label: t('mailRoutes.targets.url') },
                { value: 'email', label: t('mailRoutes.targets.email') },
              ]}
            />
          </Form.Item>
          {target === 'email' ? (
            <>
              <Form.Item
                name="email"
                label={t('mailRoutes.email')}
                rules={[{ required: true, message: t('mailRoutes.emailRequired') }]}
              >
                <Input className="mail-route-email" />
              </Form.Item>
              <Form.Item label={t('mailRoutes.verifyCode')} required>
                <Space.Compact style={{ width: '100%' }}>
                  <Form.Item name="verifyCode" noStyle>
                    <Input className="mail-route-code" maxLength={6} />
                  </Form.Item>
                  <Button
                    className="mail-route-send-code"
                    loading={sendCode.isPending}
                    onClick={() => sendCode.mutate()}
                  >
                    {t('mailRoutes.sendCode')}
                  </Button>
                </Space.Compact>
              </Form.Item>
            </>
          ) : (
            <Form.Item
              name="url"
              label="URL"
              rules={[{ required: true, message: t('mailRoutes.urlRequired') }]}
            >
              <Input className="mail-route-url" placeholder="https://" />
            </Form.Item>
          )}
        </Form>
      </Modal>
    </Card>
  );
}
