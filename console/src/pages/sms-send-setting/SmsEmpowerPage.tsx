import { PERMISSIONS } from '@herald/shared/permissions';
import { API_KEY_GRACE_MINUTES } from '@herald/shared/schemas/api-user.schema';
import { SMS_USER_MAX, type SmsUserView, smsUserNameSchema } from '@herald/shared/schemas/sms-user.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Checkbox,
  Empty,
  Flex,
  Form,
  Input,
  Modal,
  Result,
  Select,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createSmsUser, fetchSmsUsers, resetSmsKey } from '../../api/sms-users.api.ts';
import { Can } from '../../components/Can.tsx';
import { showFormError, zodRule } from '../../components/form-rules.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { ShownOnceModal } from '../../components/ShownOnceModal.tsx';
import { useFormSave } from '../../components/use-form-save.ts';
import { useSensitiveAction } from '../../components/use-sensitive-action.tsx';
import { SmsGatewayUsersCard } from './SmsGatewayUsersCard.tsx';

interface Issued {
  name: string;
  key: string;
  oldKeyExpiresAt?: number;
}

/**
 * SMS_USERs (console-spec §2 /s_sendSetting/empower): the account's credentials for sending SMS,
 * at most five, never edited or deleted. A new SMS_KEY is shown once (after a creation or a
 * reset); a reset asks for the identity verification and lets the old key work a while longer.
 * Below them, the CMPP_USERs and SMPP logins of the account's own systems (SmsGatewayUsersCard).
 */
export default function SmsEmpowerPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const users = useQuery({ queryKey: ['smsUsers'], queryFn: fetchSmsUsers });
  const [creating, setCreating] = useState(false);
  const [resetting, setResetting] = useState<SmsUserView | null>(null);
  const [issued, setIssued] = useState<Issued | null>(null);
  const refresh = () => queries.invalidateQueries({ queryKey: ['smsUsers'] });

  if (users.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const list = users.data ?? [];
  const full = list.length >= SMS_USER_MAX;
  const add = (
    <Can code={PERMISSIONS.SMS_SETTINGS} level="full">
      <Button type="primary" className="sms-user-add" disabled={full} onClick={() => setCreating(true)}>
        {t('smsUsers.add')}
      </Button>
    </Can>
  );

  return (
    <>
      <Card className="sms-users-page">
        <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('smsUsers.title')}{' '}
            <Typography.Text type="secondary" className="sms-user-count">
              {list.length} / {SMS_USER_MAX}
            </Typography.Text>
          </Typography.Title>
          {add}
        </Flex>
        <Typography.Paragraph type="secondary">{t('smsUsers.intro')}</Typography.Paragraph>
        <Table<SmsUserView>
          rowKey="id"
          className="sms-users-table"
          loading={users.isPending}
          dataSource={list}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: <Empty description={t('smsUsers.empty')}>{add}</Empty> }}
          columns={[
            {
              title: t('smsUsers.name'),
              render: (_, u) => <Typography.Text strong>{u.name}</Typography.Text>,
            },
            {
              title: t('smsUsers.type'),
              render: (_, u) => (
                <Tag>{u.cType === 'test' ? t('smsUsers.typeTest') : t('smsUsers.typeNormal')}</Tag>
              ),
            },
            {
              title: t('smsUsers.keys'),
              render: (_, u) => (
                <Flex vertical gap={0} className="sms-user-keys">
                  {u.keys.map((k) =>
                    k.expiresAt === null ? (
                      <Typography.Text key={`${k.hint}-${k.createdAt}`} code className="nowrap">
                        {t('smsUsers.keyHint', { hint: k.hint })}
                      </Typography.Text>
                    ) : (
                      <Typography.Text key={`${k.hint}-${k.createdAt}`} type="secondary" className="nowrap">
                        {t('smsUsers.oldKeyUntil', { hint: k.hint, time: formatDateTime(k.expiresAt) })}
                      </Typography.Text>
                    ),
                  )}
                </Flex>
              ),
            },
            {
              title: t('smsUsers.createdAt'),
              render: (_, u) => <span className="nowrap">{formatDateTime(u.createdAt)}</span>,
            },
            {
              title: t('smsUsers.actions'),
              render: (_, u) => (
                <Can code={PERMISSIONS.SMS_SETTINGS} level="full" fallback="—">
                  <Button type="link" className="sms-user-reset" onClick={() => setResetting(u)}>
                    {t('smsUsers.resetKey')}
                  </Button>
                </Can>
              ),
            },
          ]}
        />
        <CreateModal
          open={creating}
          onCancel={() => setCreating(false)}
          onCreated={(name, key) => {
            setCreating(false);
            setIssued({ name, key });
            void refresh();
          }}
        />
        <ResetModal
          user={resetting}
          onCancel={() => setResetting(null)}
          onReset={(name, key, oldKeyExpiresAt) => {
            setResetting(null);
            setIssued({ name, key, oldKeyExpiresAt });
            void refresh();
          }}
        />
        <KeyModal issued={issued} onClose={() => setIssued(null)} />
      </Card>
      <SmsGatewayUsersCard />
    </>
  );
}

function CreateModal({
  open,
  onCancel,
  onCreated,
}: {
  open: boolean;
  onCancel: () => void;
  onCreated: (name: string, key: string) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string; test: boolean }>();
  const save = useMutation({
    mutationFn: (values: { name: string; test: boolean }) =>
      createSmsUser({ name: values.name.trim(), cType: values.test ? 'test' : 'normal' }),
    onSuccess: (issued) => {
      form.resetFields();
      onCreated(issued.smsUser.name, issued.smsKey);
    },
    onError: (error) => showFormError(form, error),
  });
  return (
    <Modal
      open={open}
      title={t('smsUsers.add')}
      className="sms-user-create-modal"
      okText={t('smsUsers.create')}
      okButtonProps={{ className: 'sms-user-submit', loading: save.isPending }}
      onOk={() => form.submit()}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => save.mutate(values)}
        initialValues={{ test: false }}
      >
        <Form.Item
          name="name"
          label={t('smsUsers.name')}
          rules={[zodRule(smsUserNameSchema)]}
          extra={t('smsUsers.nameHint')}
        >
          <Input name="name" autoComplete="off" />
        </Form.Item>
        <Form.Item name="test" valuePropName="checked" extra={t('smsUsers.testHint')}>
          <Checkbox className="sms-user-test">{t('smsUsers.typeTest')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}

function ResetModal({
  user,
  onCancel,
  onReset,
}: {
  user: SmsUserView | null;
  onCancel: () => void;
  onReset: (name: string, key: string, oldKeyExpiresAt: number) => void;
}) {
  const { t } = useTranslation();
  const { run, holder } = useSensitiveAction();
  const [minutes, setMinutes] = useState<number>(API_KEY_GRACE_MINUTES[0]);
  // run() reports its own failures.
  const reset = useFormSave(
    async (input: Parameters<typeof resetSmsKey>[0]) => {
      const result = await run(() => resetSmsKey(input), { successToast: false });
      if (result) onReset(result.smsUser.name, result.smsKey, result.oldKeyExpiresAt);
    },
    () => {},
  );
  const confirm = () => {
    if (!user) return;
    reset.submit({ smsUserId: user.id, expiresInMinutes: minutes });
  };
  return (
    <>
      <Modal
        open={user !== null}
        title={user ? t('smsUsers.resetTitle', { name: user.name }) : null}
        className="sms-key-reset-modal"
        okText={t('smsUsers.resetKey')}
        okButtonProps={{ className: 'sms-key-reset-confirm', loading: reset.saving }}
        onOk={confirm}
        onCancel={onCancel}
        destroyOnHidden
      >
        <Typography.Paragraph>{t('smsUsers.resetHint')}</Typography.Paragraph>
        <Select<number>
          className="sms-key-grace"
          value={minutes}
          onChange={setMinutes}
          style={{ minWidth: 200 }}
          options={API_KEY_GRACE_MINUTES.map((m) => ({
            value: m,
            label: t('smsUsers.graceMinutes', { minutes: m }),
          }))}
        />
      </Modal>
      {holder}
    </>
  );
}

/** A new SMS_KEY, the one time it is shown: the server keeps only its hash. */
function KeyModal({ issued, onClose }: { issued: Issued | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <ShownOnceModal
      name="sms-key"
      value={issued?.key ?? null}
      title={issued ? t('smsUsers.keyTitle', { name: issued.name }) : null}
      warning={t('smsUsers.keyWarning')}
      closeText={t('smsUsers.keySaved')}
      onClose={onClose}
    >
      {issued?.oldKeyExpiresAt !== undefined && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('smsUsers.keyOldValid', { time: formatDateTime(issued.oldKeyExpiresAt) })}
        </Typography.Paragraph>
      )}
    </ShownOnceModal>
  );
}
