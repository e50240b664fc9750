import {
  MESSAGE_NOTIFIER_KINDS,
  MESSAGE_NOTIFIERS_MAX,
  type MessageNotifierKind,
  type MessageNotifierView,
  messageNotifierSchema,
  type SiteMessageCategory,
} from '@herald/shared/schemas/site-message.schema';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Empty,
  Flex,
  Form,
  Input,
  List,
  Popconfirm,
  Result,
  Select,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  addMessageNotifier,
  fetchMessageSettings,
  type MessageSettingsView,
  removeMessageNotifier,
  saveMessageSetting,
} from '../../api/messages.api.ts';
import { checkWithSchema, showFormError } from '../../components/form-rules.ts';
import { fenToYuan } from '../../components/money.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { useSensitiveAction } from '../../components/use-sensitive-action.tsx';

const QUERY_KEY = ['messageSettings'];
const CENTRE_PATH = '/accountSetting/messageCenter';

type Setting = MessageSettingsView['settings'][number];

/**
 * Message settings (console-spec §2 `accountSetting/messageCenter/setMessage`, code 7; calls
 * `/messageSettings`): per kind of message, whether it is also mailed and texted (the message
 * centre itself cannot be turned off; SMS is for paid accounts and needs a phone), saved at once
 * with an Undo; and the notifiers, up to 3 addresses and 3 phones, each removed after a
 * confirmation. Says where mail goes while no address is set and how many SMS notices this month
 * has used.
 */
export default function MessageSettingsPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const { run, holder } = useSensitiveAction();
  const settings = useQuery({ queryKey: QUERY_KEY, queryFn: fetchMessageSettings });
  const refresh = () => queries.invalidateQueries({ queryKey: QUERY_KEY });

  const toggle = async (setting: Setting, channel: 'email' | 'sms', on: boolean, undoable = true) => {
    const next = { category: setting.category, email: setting.email, sms: setting.sms, [channel]: on };
    await run(() => saveMessageSetting(next), {
      undo: undoable ? () => void toggle({ ...setting, ...next }, channel, !on, false) : undefined,
    });
    await refresh();
  };

  if (settings.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const view = settings.data;

  return (
    <Flex vertical gap={16} className="message-settings-page">
      {holder}
      <Card
        title={t('messages.settings.title')}
        extra={<Link to={CENTRE_PATH}>{t('messages.title')}</Link>}
        loading={settings.isPending}
      >
        <Typography.Paragraph type="secondary">{t('messages.settings.intro')}</Typography.Paragraph>
        <Table<Setting>
          rowKey="category"
          className="message-settings-table"
          pagination={false}
          dataSource={view?.settings ?? []}
          columns={[
            {
              title: t('messages.settings.category'),
              render: (_: unknown, s) => t(`messages.category_${s.category as SiteMessageCategory}`),
            },
            {
              title: t('messages.settings.site'),
              render: () => (
                <Tooltip title={t('messages.settings.siteAlwaysOn')}>
                  <Switch checked disabled size="small" />
                </Tooltip>
              ),
            },
            {
              title: t('messages.settings.email'),
              render: (_: unknown, s) => (
                <Switch
                  size="small"
                  className={`message-setting-email-${s.category}`}
                  checked={s.email}
                  onChange={(on) => void toggle(s, 'email', on)}
                />
              ),
            },
            {
              title: t('messages.settings.sms'),
              render: (_: unknown, s) => (
                <Tooltip title={view?.paid ? undefined : t('messages.settings.smsPaidOnly')}>
                  <Switch
                    size="small"
                    className={`message-setting-sms-${s.category}`}
                    checked={s.sms}
                    disabled={!view?.paid && !s.sms}
                    onChange={(on) => void toggle(s, 'sms', on)}
                  />
                </Tooltip>
              ),
            },
          ]}
        />
        {view && (
          <Typography.Paragraph
            type="secondary"
            className="message-settings-sms-usage"
            style={{ marginTop: 12 }}
          >
            {t('messages.settings.smsUsage', {
              used: view.smsThisMonth,
              limit: view.smsMonthlyLimit,
              price: fenToYuan(view.smsPriceFen),
            })}
          </Typography.Paragraph>
        )}
      </Card>
      {view && <NotifiersCard view={view} onChanged={refresh} />}
    </Flex>
  );
}

function NotifiersCard({ view, onChanged }: { view: MessageSettingsView; onChanged: () => Promise<void> }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ kind: MessageNotifierKind; address: string }>();
  const kind = Form.useWatch('kind', form) ?? 'email';
  const emails = view.notifiers.filter((n) => n.kind === 'email');

  const { submit, saving } = useFormSave(
    async (values: { kind: MessageNotifierKind; address: string }) => {
      if (!checkWithSchema(form, messageNotifierSchema, values)) return;
      await addMessageNotifier(values);
      form.setFields([{ name: 'address', value: '', errors: [] }]);
      await onChanged();
    },
    (error) => showFormError(form, error),
  );
  const remove = async (notifier: MessageNotifierView) => {
    try {
      await removeMessageNotifier(notifier.id);
    } finally {
      await onChanged();
    }
  };

  return (
    <Card title={t('messages.settings.notifiers')} className="message-notifiers">
      <Typography.Paragraph type="secondary">
        {t('messages.settings.notifiersHint', { max: MESSAGE_NOTIFIERS_MAX })}
      </Typography.Paragraph>
      {emails.length === 0 && view.ownerEmail && (
        <Alert
          type="info"
          showIcon
          className="message-notifiers-owner"
          style={{ marginBottom: 16 }}
          title={t('messages.settings.ownerFallback', { email: view.ownerEmail })}
        />
      )}
      <Form
        form={form}
        layout="inline"
        initialValues={{ kind: 'email', address: '' }}
        onFinish={submit}
        style={{ rowGap: 8, marginBottom: 16 }}
      >
        <Form.Item name="kind">
          <Select
            className="message-notifier-kind"
            style={{ width: 120 }}
            options={MESSAGE_NOTIFIER_KINDS.map((k) => ({
              value: k,
              label: t(`messages.settings.kind_${k}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="address" label={t('messages.settings.address')}>
          <Input
            className="message-notifier-address"
            style={{ width: 260 }}
            autoComplete="off"
            placeholder={
              kind === 'phone'
                ? t('messages.settings.addressPlaceholderPhone')
                : t('messages.settings.addressPlaceholderEmail')
            }
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={saving} className="message-notifier-add">
            {t('messages.settings.add')}
          </Button>
        </Form.Item>
      </Form>
      <List
        className="message-notifiers-list"
        dataSource={view.notifiers}
        locale={{ emptyText: <Empty description={t('messages.settings.noNotifiers')} /> }}
        renderItem={(notifier) => (
          <List.Item
            className="message-notifier"
            actions={[
              <Popconfirm
                key="remove"
                title={t('messages.settings.removeConfirm')}
                okButtonProps={{ danger: true, className: 'message-notifier-remove-ok' }}
                onConfirm={() => remove(notifier)}
              >
                <Button type="link" danger size="small" className="message-notifier-remove">
                  {t('messages.settings.remove')}
                </Button>
              </Popconfirm>,
            ]}
          >
            <Flex gap={8} align="center">
              <Tag>{t(`messages.settings.kind_${notifier.kind}`)}</Tag>
              <Typography.Text className="message-notifier-address-text">{notifier.address}</Typography.Text>
            </Flex>
          </List.Item>
        )}
      />
    </Card>
  );
}
