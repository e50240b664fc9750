import { PERMISSIONS } from '@herald/shared/permissions';
import {
  SMS_HOOK_EVENTS,
  type SmsHookView,
  smsHookInputSchema,
} from '@herald/shared/schemas/sms-hook.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Checkbox,
  Empty,
  Form,
  Input,
  Modal,
  Popconfirm,
  Result,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createSmsHook,
  deleteSmsHook,
  fetchSmsHooks,
  refreshSmsHook,
  testSmsHook,
  updateSmsHook,
} from '../../api/sms-hooks.api.ts';
import { fetchSmsUsers } from '../../api/sms-users.api.ts';
import { Can } from '../../components/Can.tsx';
import { showFormError, zodRule } from '../../components/form-rules.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';

interface Values {
  url: string;
  events: string[];
  smsUserId: number | 'all';
  appKey?: string;
}

const fields = smsHookInputSchema.shape;

/**
 * SMSHook (console-spec §2 /s_sendSetting/smsHook): the URLs the account's SMS events are pushed
 * to, each for one SMS_USER or all, with the events chosen and an optional app key; a URL is
 * probed when saved, a hook can be tested, an unavailable one restored, and deleting asks first.
 */
export default function SmsHooksPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [editing, setEditing] = useState<SmsHookView | 'new' | null>(null);
  const hooks = useQuery({ queryKey: ['smsHooks'], queryFn: fetchSmsHooks });
  const smsUsers = useQuery({ queryKey: ['smsUsers'], queryFn: fetchSmsUsers });
  const reload = () => queries.invalidateQueries({ queryKey: ['smsHooks'] });

  const save = useMutation({
    mutationFn: (values: Values) => {
      const input = {
        url: values.url,
        events: values.events as SmsHookView['events'],
        smsUserId: values.smsUserId === 'all' ? null : values.smsUserId,
        appKey: values.appKey ?? '',
      };
      return editing && editing !== 'new' ? updateSmsHook(editing.id, input) : createSmsHook(input);
    },
    onSuccess: async () => {
      setEditing(null);
      await reload();
    },
    onError: (error) => showFormError(form, error),
  });
  const test = useMutation({
    mutationFn: testSmsHook,
    onSuccess: (result) =>
      httpEffects().toast(
        result.ok ? 'success' : 'error',
        result.ok
          ? t('smsSend.hookTestOk', { status: result.status, ms: result.durationMs })
          : t('smsSend.hookTestFailed', { error: result.error ?? `HTTP ${result.status}` }),
        SUCCESS_TOAST_SECONDS,
      ),
  });
  const remove = useMutation({ mutationFn: deleteSmsHook, onSuccess: reload });
  const refresh = useMutation({ mutationFn: refreshSmsHook, onSuccess: reload });

  const open = (hook: SmsHookView | 'new') => {
    setEditing(hook);
    form.setFieldsValue(
      hook === 'new'
        ? { url: '', events: ['deliver', 'delivererror'], smsUserId: 'all', appKey: '' }
        : {
            url: hook.url,
            events: hook.events,
            smsUserId: hook.smsUserId ?? 'all',
            appKey: hook.appKey ?? '',
          },
    );
  };

  if (hooks.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const addButton = (
    <Can code={PERMISSIONS.SMS_SETTINGS} level="full">
      <Button type="primary" className="sms-hook-add" onClick={() => open('new')}>
        {t('smsSend.hookAdd')}
      </Button>
    </Can>
  );

  return (
    <Card className="sms-hooks-page">
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {t('smsSend.hooksTitle')}
        </Typography.Title>
        {addButton}
      </Space>
      <Typography.Paragraph type="secondary">{t('smsSend.hooksIntro')}</Typography.Paragraph>
      <Table<SmsHookView>
        rowKey="id"
        className="sms-hooks-table"
        loading={hooks.isPending}
        dataSource={hooks.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('smsSend.hookEmpty')}>{addButton}</Empty> }}
        columns={[
          { title: t('smsSend.hookUrl'), dataIndex: 'url' },
          {
            title: t('smsSend.hookEvents'),
            render: (_, h) => h.events.map((e) => <Tag key={e}>{t(`smsSend.hookEventNames.${e}`)}</Tag>),
          },
          { title: t('smsSend.hookTarget'), render: (_, h) => h.smsUserName ?? t('smsSend.hookAll') },
          {
            title: t('smsSend.hookStatus'),
            render: (_, h) => (
              <Tag color={h.status === 'normal' ? 'green' : 'red'} className={`sms-hook-${h.status}`}>
                {t(`smsSend.hookStatuses.${h.status}`)}
              </Tag>
            ),
          },
          {
            title: t('smsSend.hookActions'),
            render: (_, h) => (
              <Can code={PERMISSIONS.SMS_SETTINGS} level="full">
                <Space>
                  <Button type="link" className="sms-hook-test" onClick={() => test.mutate(h.id)}>
                    {t('smsSend.hookTest')}
                  </Button>
                  <Button type="link" onClick={() => open(h)}>
                    {t('smsSend.hookEdit')}
                  </Button>
                  {h.status === 'unavailable' && (
                    <Button type="link" onClick={() => refresh.mutate(h.id)}>
                      {t('smsSend.hookRefresh')}
                    </Button>
                  )}
                  <Popconfirm title={t('smsSend.hookDeleteConfirm')} onConfirm={() => remove.mutate(h.id)}>
                    <Button type="link" danger className="sms-hook-delete">
                      {t('smsSend.hookDelete')}
                    </Button>
                  </Popconfirm>
                </Space>
              </Can>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? t('smsSend.hookAdd') : t('smsSend.hookEdit')}
        onCancel={() => setEditing(null)}
        okText={t('smsSend.hookSave')}
        cancelText={t('smsSend.hookCancel')}
        confirmLoading={save.isPending}
        onOk={() => form.submit()}
        okButtonProps={{ className: 'sms-hook-save' }}
        className="sms-hook-modal"
        destroyOnHidden
        forceRender
      >
        <Form<Values> form={form} layout="vertical" onFinish={(values) => save.mutate(values)}>
          <Form.Item
            name="url"
            label={t('smsSend.hookUrl')}
            extra={t('smsSend.hookUrlHint')}
            rules={[zodRule(fields.url)]}
          >
            <Input className="sms-hook-url" placeholder="https://example.com/smshook" />
          </Form.Item>
          <Form.Item name="events" label={t('smsSend.hookEvents')} rules={[zodRule(fields.events)]}>
            <Checkbox.Group
              options={SMS_HOOK_EVENTS.map((e) => ({ value: e, label: t(`smsSend.hookEventNames.${e}`) }))}
            />
          </Form.Item>
          <Form.Item name="smsUserId" label={t('smsSend.hookTarget')}>
            <Select
              options={[
                { value: 'all', label: t('smsSend.hookAll') },
                ...(smsUsers.data ?? []).map((u) => ({ value: u.id, label: u.name })),
              ]}
            />
          </Form.Item>
          <Form.Item name="appKey" label={t('smsSend.hookAppKey')} extra={t('smsSend.hookAppKeyHint')}>
            <Input className="sms-hook-app-key" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
