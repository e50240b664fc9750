import { PERMISSIONS } from '@herald/shared/permissions';
import {
  SMS_GATEWAY_PER_SECOND,
  SMS_GATEWAY_WINDOW,
  type SmsGatewayProtocol,
  type SmsGatewayUserView,
  smsGatewayNameProblem,
} from '@herald/shared/schemas/sms-gateway-user.schema';
import { validationMessage } from '@herald/shared/validation';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Radio,
  Result,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import i18next from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createGatewayUser,
  deleteGatewayUser,
  fetchGatewayUsers,
  type GatewayUserForm,
  resetGatewaySecret,
} from '../../api/sms-gateway-users.api.ts';
import { Can } from '../../components/Can.tsx';
import { showFormError } from '../../components/form-rules.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { ShownOnceModal } from '../../components/ShownOnceModal.tsx';
import { useSensitiveAction } from '../../components/use-sensitive-action.tsx';

interface Issued {
  name: string;
  secret: string;
}

/**
 * CMPP_USERs and SMPP logins (console-spec §2 /s_sendSetting/empower, beside SMS_USERs): what a
 * customer's own system logs in to Herald's CMPP or SMPP gateway with. The secret is shown once,
 * after a creation or a reset (which asks for the identity verification); deleting asks first.
 */
export function SmsGatewayUsersCard() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const users = useQuery({ queryKey: ['smsGatewayUsers'], queryFn: fetchGatewayUsers });
  const [creating, setCreating] = useState(false);
  const [issued, setIssued] = useState<Issued | null>(null);
  const { run, holder } = useSensitiveAction();
  const refresh = () => queries.invalidateQueries({ queryKey: ['smsGatewayUsers'] });
  const remove = useMutation({
    mutationFn: (user: SmsGatewayUserView) => deleteGatewayUser(user.id),
    onSuccess: () => void refresh(),
  });

  if (users.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const list = users.data?.list ?? [];
  const max = users.data?.max ?? 0;
  const reset = async (user: SmsGatewayUserView) => {
    const result = await run(() => resetGatewaySecret(user.id), { successToast: false });
    if (!result) return;
    setIssued({ name: result.user.name, secret: result.secret });
    void refresh();
  };
  const add = (
    <Can code={PERMISSIONS.SMS_SETTINGS} level="full">
      <Button
        type="primary"
        className="gateway-user-add"
        disabled={users.isPending || list.length >= max}
        onClick={() => setCreating(true)}
      >
        {t('smsGateway.add')}
      </Button>
    </Can>
  );

  return (
    <Card className="gateway-users-card" style={{ marginTop: 16 }}>
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('smsGateway.title')}{' '}
          <Typography.Text type="secondary" className="gateway-user-count">
            {list.length} / {max}
          </Typography.Text>
        </Typography.Title>
        {add}
      </Flex>
      <Typography.Paragraph type="secondary">{t('smsGateway.intro')}</Typography.Paragraph>
      <Table<SmsGatewayUserView>
        rowKey="id"
        className="gateway-users-table"
        loading={users.isPending}
        dataSource={list}
        pagination={false}
        scroll={{ x: true }}
        locale={{ emptyText: <Empty description={t('smsGateway.empty')} /> }}
        columns={[
          {
            title: t('smsGateway.name'),
            render: (_, u) => <Typography.Text strong>{u.name}</Typography.Text>,
          },
          { title: t('smsGateway.protocol'), render: (_, u) => <Tag>{u.protocol.toUpperCase()}</Tag> },
          {
            title: t('smsGateway.secret'),
            render: (_, u) => (
              <Typography.Text code className="nowrap gateway-user-hint">
                {t('smsGateway.secretHint', { hint: u.secretHint })}
              </Typography.Text>
            ),
          },
          {
            title: t('smsGateway.allowedIps'),
            render: (_, u) => (u.allowedIps.length ? u.allowedIps.join(', ') : t('smsGateway.anyIp')),
          },
          { title: t('smsGateway.limits'), render: (_, u) => `${u.window} / ${u.perSecond}` },
          {
            title: t('smsGateway.createdAt'),
            render: (_, u) => <span className="nowrap">{formatDateTime(u.createdAt)}</span>,
          },
          {
            title: t('smsGateway.actions'),
            render: (_, u) => (
              <Can code={PERMISSIONS.SMS_SETTINGS} level="full" fallback="—">
                <Space size={0}>
                  <Popconfirm
                    title={t('smsGateway.resetConfirm', { name: u.name })}
                    onConfirm={() => reset(u)}
                    okButtonProps={{ className: 'gateway-reset-confirm' }}
                  >
                    <Button type="link" className="gateway-user-reset">
                      {t('smsGateway.resetSecret')}
                    </Button>
                  </Popconfirm>
                  <Popconfirm
                    title={t('smsGateway.deleteConfirm', { name: u.name })}
                    onConfirm={() => remove.mutateAsync(u)}
                    okButtonProps={{ danger: true, className: 'gateway-delete-confirm' }}
                  >
                    <Button type="link" danger className="gateway-user-delete">
                      {t('smsGateway.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              </Can>
            ),
          },
        ]}
      />
      <CreateModal
        open={creating}
        onCancel={() => setCreating(false)}
        onCreated={(name, secret) => {
          setCreating(false);
          setIssued({ name, secret });
          void refresh();
        }}
      />
      <SecretModal issued={issued} onClose={() => setIssued(null)} />
      {holder}
    </Card>
  );
}

function CreateModal({
  open,
  onCancel,
  onCreated,
}: {
  open: boolean;
  onCancel: () => void;
  onCreated: (name: string, secret: string) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<GatewayUserForm>();
  const protocol = Form.useWatch('protocol', form) ?? 'cmpp';
  const save = useMutation({
    mutationFn: (values: GatewayUserForm) => createGatewayUser({ ...values, name: values.name.trim() }),
    onSuccess: (made) => {
      form.resetFields();
      onCreated(made.user.name, made.secret);
    },
    onError: (error) => showFormError(form, error),
  });
  const lang = i18next.language === 'en' ? 'en' : 'zh-cn';
  return (
    <Modal
      open={open}
      title={t('smsGateway.add')}
      className="gateway-user-create-modal"
      okText={t('smsGateway.create')}
      okButtonProps={{ className: 'gateway-user-submit', loading: save.isPending }}
      onOk={() => form.submit()}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Form<GatewayUserForm>
        form={form}
        layout="vertical"
        onFinish={(values) => save.mutate(values)}
        initialValues={{
          protocol: 'cmpp',
          allowedIps: '',
          window: SMS_GATEWAY_WINDOW.default,
          perSecond: SMS_GATEWAY_PER_SECOND.default,
        }}
      >
        <Form.Item name="protocol" label={t('smsGateway.protocol')}>
          <Radio.Group
            className="gateway-user-protocol"
            options={(['cmpp', 'smpp'] as SmsGatewayProtocol[]).map((p) => ({
              value: p,
              label: p.toUpperCase(),
            }))}
            onChange={() => form.validateFields(['name']).catch(() => undefined)}
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('smsGateway.name')}
          extra={protocol === 'cmpp' ? t('smsGateway.nameHintCmpp') : t('smsGateway.nameHintSmpp')}
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const problem = smsGatewayNameProblem(protocol, (value ?? '').trim());
                if (problem) throw new Error(validationMessage(problem, lang));
              },
            },
          ]}
        >
          <Input name="name" autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="allowedIps"
          label={t('smsGateway.allowedIps')}
          extra={t('smsGateway.allowedIpsHint')}
        >
          <Input.TextArea name="allowedIps" rows={3} />
        </Form.Item>
        <Flex gap={16}>
          <Form.Item
            name="window"
            label={t('smsGateway.window')}
            extra={t('smsGateway.windowHint')}
            style={{ flex: 1 }}
          >
            <InputNumber min={SMS_GATEWAY_WINDOW.min} max={SMS_GATEWAY_WINDOW.max} precision={0} />
          </Form.Item>
          <Form.Item
            name="perSecond"
            label={t('smsGateway.perSecond')}
            extra={t('smsGateway.perSecondHint')}
            style={{ flex: 1 }}
          >
            <InputNumber min={SMS_GATEWAY_PER_SECOND.min} max={SMS_GATEWAY_PER_SECOND.max} precision={0} />
          </Form.Item>
        </Flex>
      </Form>
    </Modal>
  );
}

/** A new secret, the one time it is shown. */
function SecretModal({ issued, onClose }: { issued: Issued | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <ShownOnceModal
      name="gateway-secret"
      value={issued?.secret ?? null}
      title={issued ? t('smsGateway.secretTitle', { name: issued.name }) : null}
      warning={t('smsGateway.secretWarning')}
      closeText={t('smsGateway.secretSaved')}
      onClose={onClose}
    />
  );
}
