import { PERMISSIONS } from '@herald/shared/permissions';
import {
  AD_POSITIONS,
  NO_DISTURB_CYCLES,
  RELAY_DEFAULT_PORT,
  RELAY_SECURITY,
  SENDER_CONFIG_INPUTS,
  type SenderConfigKind,
} from '@herald/shared/schemas/sender-config.schema';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Empty,
  Form,
  Input,
  Popconfirm,
  Result,
  Select,
  Switch,
  Table,
  Tabs,
  Typography,
} from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  deleteSenderConfig,
  fetchSenderConfig,
  type SenderConfigEntry,
  saveSenderConfig,
  setSenderConfigSwitch,
} from '../../api/sender-configs.api.ts';
import { Can } from '../../components/Can.tsx';
import { checkWithSchema, showFormError } from '../../components/form-rules.ts';
import { useCan } from '../../components/use-can.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';

type Values = Record<string, unknown>;

/**
 * One kind of sender configuration: its switch, its form and, for list kinds, its entries. A
 * single-entry kind fills its form from its entry (`toValues`), else from `defaults`; `fields` and
 * `footer` may depend on that entry.
 */
function SenderConfigTab({
  kind,
  fields,
  columns,
  list,
  toValues,
  defaults,
  footer,
}: {
  kind: SenderConfigKind;
  fields: ReactNode | ((current: SenderConfigEntry | undefined) => ReactNode);
  columns?: { title: string; render: (e: SenderConfigEntry) => ReactNode }[];
  list?: boolean;
  toValues?: (entry: SenderConfigEntry) => Values;
  defaults?: Values;
  footer?: (current: SenderConfigEntry | undefined, refresh: () => Promise<void>) => ReactNode;
}) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [form] = Form.useForm<Values>();
  const canEdit = useCan(PERMISSIONS.EMAIL_SETTINGS, 'full');
  const config = useQuery({ queryKey: ['senderConfigs', kind], queryFn: () => fetchSenderConfig(kind) });
  const refresh = () => queries.invalidateQueries({ queryKey: ['senderConfigs', kind] });
  const current = list ? undefined : config.data?.entries[0];
  const initial = current && toValues ? toValues(current) : defaults;

  const { submit, saving } = useFormSave(
    async (values: Values) => {
      if (!checkWithSchema(form, SENDER_CONFIG_INPUTS[kind], values)) return;
      await saveSenderConfig(kind, values);
      httpEffects().toast('success', t('http.operationSucceeded'), SUCCESS_TOAST_SECONDS);
      if (list) form.resetFields();
      await refresh();
    },
    (error) => {
      showFormError(form, error);
    },
  );

  if (config.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  return (
    <div className={`sender-config sender-config-${kind}`}>
      <Typography.Paragraph type="secondary">{t(`senderConfigs.${kind}Intro`)}</Typography.Paragraph>
      {kind !== 'intercept' && (
        <Typography.Paragraph>
          {t('senderConfigs.enabled')}{' '}
          <Switch
            className="sender-config-switch"
            checked={config.data?.enabled ?? true}
            disabled={!canEdit}
            onChange={async (checked) => {
              await setSenderConfigSwitch(kind, checked);
              await refresh();
            }}
          />
        </Typography.Paragraph>
      )}
      {config.data && (
        <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
          <Form
            form={form}
            layout="inline"
            className="sender-config-form"
            initialValues={initial}
            key={current?.updatedAt ?? 0}
            onFinish={submit}
            style={{ marginBottom: 16, rowGap: 8 }}
          >
            {typeof fields === 'function' ? fields(current) : fields}
            <Form.Item>
              <Button type="primary" htmlType="submit" loading={saving} className="sender-config-save">
                {list ? t('senderConfigs.add') : t('senderConfigs.save')}
              </Button>
            </Form.Item>
          </Form>
        </Can>
      )}
      {config.data && footer?.(current, refresh)}
      {list && columns && (
        <Table<SenderConfigEntry>
          rowKey="id"
          className="sender-config-table"
          loading={config.isPending}
          dataSource={config.data?.entries ?? []}
          pagination={false}
          locale={{ emptyText: <Empty description={t('senderConfigs.empty')} /> }}
          columns={[
            ...columns.map((c) => ({
              title: c.title,
              render: (_: unknown, e: SenderConfigEntry) => c.render(e),
            })),
            {
              title: t('senderConfigs.actions'),
              render: (_: unknown, e: SenderConfigEntry) => (
                <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full" fallback="—">
                  <Popconfirm
                    title={t('senderConfigs.deleteConfirm')}
                    okButtonProps={{ danger: true }}
                    onConfirm={async () => {
                      await deleteSenderConfig(kind, e.id);
                      await refresh();
                    }}
                  >
                    <Button type="link" danger className="sender-config-delete">
                      {t('senderConfigs.delete')}
                    </Button>
                  </Popconfirm>
                </Can>
              ),
            },
          ]}
        />
      )}
    </div>
  );
}

/** A relay as a URL without its password, e.g. smtp://mailer@smtp.example.com:587. */
function describeRelay(e: SenderConfigEntry): string {
  const scheme = e.security === 'tls' ? 'smtps' : 'smtp';
  return `${scheme}://${e.username ? `${String(e.username)}@` : ''}${String(e.host)}:${String(e.port)}`;
}

/**
 * Sender configurations (console-spec §2 /sendSetting/sender, §7 /sendConfig/*): fixed from,
 * fixed mail_from, AD mark, TLS receiver domains, do-not-disturb windows, send without
 * interception, bounce settings and the account's smart-host relay, each with its on/off switch. The forms check with the shared
 * schemas (product-spec §5 "Do-not-disturb: end not before start; day numbers required …").
 */
export default function SendersPage() {
  const { t } = useTranslation();
  const cycleLabel = (c: string) => t(`senderConfigs.cycle_${c as 'day' | 'week' | 'month'}`);
  const interceptQuery = useQuery({
    queryKey: ['senderConfigs', 'intercept'],
    queryFn: () => fetchSenderConfig('intercept'),
  });
  const queries = useQueryClient();
  const canEdit = useCan(PERMISSIONS.EMAIL_SETTINGS, 'full');

  const items = [
    {
      key: 'from',
      label: t('senderConfigs.from'),
      children: (
        <SenderConfigTab
          kind="from"
          list
          fields={
            <>
              <Form.Item name="receiveDomain" label={t('senderConfigs.receiveDomain')}>
                <Input placeholder="qq.com / *" className="sender-receive-domain" />
              </Form.Item>
              <Form.Item name="fromPrefix" label={t('senderConfigs.fromPrefix')}>
                <Input placeholder="noreply" className="sender-from-prefix" />
              </Form.Item>
            </>
          }
          columns={[
            { title: t('senderConfigs.receiveDomain'), render: (e) => String(e.receiveDomain) },
            { title: t('senderConfigs.fromPrefix'), render: (e) => String(e.fromPrefix) },
          ]}
        />
      ),
    },
    {
      key: 'mailfrom',
      label: t('senderConfigs.mailfrom'),
      children: (
        <SenderConfigTab
          kind="mailfrom"
          toValues={(e) => ({ domain: e.domain })}
          fields={
            <Form.Item name="domain" label={t('senderConfigs.mailFromDomain')}>
              <Input placeholder="bounce.example.com" className="sender-mailfrom-domain" />
            </Form.Item>
          }
        />
      ),
    },
    {
      key: 'ad',
      label: t('senderConfigs.ad'),
      children: (
        <SenderConfigTab
          kind="ad"
          toValues={(e) => ({ position: e.position, text: e.text })}
          fields={
            <>
              <Form.Item name="position" label={t('senderConfigs.adPosition')}>
                <Select
                  style={{ width: 160 }}
                  className="sender-ad-position"
                  options={AD_POSITIONS.map((p) => ({ value: p, label: t(`senderConfigs.ad_${p}`) }))}
                />
              </Form.Item>
              <Form.Item name="text" label={t('senderConfigs.adText')}>
                <Input placeholder="(AD)" className="sender-ad-text" />
              </Form.Item>
            </>
          }
        />
      ),
    },
    {
      key: 'tls',
      label: t('senderConfigs.tls'),
      children: (
        <SenderConfigTab
          kind="tls"
          list
          fields={
            <Form.Item name="domain" label={t('senderConfigs.tlsDomain')}>
              <Input placeholder="gmail.com" className="sender-tls-domain" />
            </Form.Item>
          }
          columns={[{ title: t('senderConfigs.tlsDomain'), render: (e) => String(e.domain) }]}
        />
      ),
    },
    {
      key: 'nodisturb',
      label: t('senderConfigs.nodisturb'),
      children: (
        <SenderConfigTab
          kind="nodisturb"
          list
          fields={
            <>
              <Form.Item name="cycle" label={t('senderConfigs.cycle')} initialValue="day">
                <Select
                  style={{ width: 120 }}
                  className="nodisturb-cycle"
                  options={NO_DISTURB_CYCLES.map((c) => ({ value: c, label: cycleLabel(c) }))}
                />
              </Form.Item>
              <Form.Item name="days" label={t('senderConfigs.days')}>
                <Input placeholder="1,3,5" className="nodisturb-days" style={{ width: 120 }} />
              </Form.Item>
              <Form.Item name="start" label={t('senderConfigs.start')}>
                <Input placeholder="22:00" className="nodisturb-start" style={{ width: 90 }} />
              </Form.Item>
              <Form.Item name="end" label={t('senderConfigs.end')}>
                <Input placeholder="23:59" className="nodisturb-end" style={{ width: 90 }} />
              </Form.Item>
            </>
          }
          columns={[
            { title: t('senderConfigs.cycle'), render: (e) => cycleLabel(String(e.cycle)) },
            { title: t('senderConfigs.days'), render: (e) => (e.days as number[]).join(', ') || '—' },
            { title: t('senderConfigs.start'), render: (e) => String(e.start) },
            { title: t('senderConfigs.end'), render: (e) => String(e.end) },
          ]}
        />
      ),
    },
    {
      key: 'intercept',
      label: t('senderConfigs.intercept'),
      children: (
        <div className="sender-config sender-config-intercept">
          <Typography.Paragraph type="secondary">{t('senderConfigs.interceptIntro')}</Typography.Paragraph>
          <Switch
            className="sender-intercept-switch"
            checked={interceptQuery.data?.enabled ?? false}
            disabled={!canEdit}
            onChange={async (checked) => {
              await saveSenderConfig('intercept', { enabled: checked });
              await queries.invalidateQueries({ queryKey: ['senderConfigs', 'intercept'] });
            }}
          />
        </div>
      ),
    },
    {
      key: 'bounce',
      label: t('senderConfigs.bounce'),
      children: (
        <SenderConfigTab
          kind="bounce"
          toValues={(e) => ({ forward: e.forward, address: e.address ?? '' })}
          fields={
            <>
              <Form.Item
                name="forward"
                label={t('senderConfigs.bounceForward')}
                valuePropName="checked"
                initialValue={false}
              >
                <Switch className="sender-bounce-forward" />
              </Form.Item>
              <Form.Item name="address" label={t('senderConfigs.bounceAddress')}>
                <Input placeholder="ops@example.com" className="sender-bounce-address" />
              </Form.Item>
            </>
          }
        />
      ),
    },
    {
      key: 'relay',
      label: t('senderConfigs.relay'),
      children: (
        <SenderConfigTab
          kind="relay"
          defaults={{
            port: RELAY_DEFAULT_PORT,
            security: 'starttls',
            requireTls: true,
            verifyCertificate: true,
          }}
          toValues={(e) => ({
            host: e.host,
            port: e.port,
            security: e.security,
            requireTls: e.requireTls,
            verifyCertificate: e.verifyCertificate,
            username: e.username,
            password: '',
          })}
          fields={(current) => (
            <>
              <Form.Item name="host" label={t('senderConfigs.relayHost')}>
                <Input placeholder="smtp.example.com" className="relay-host" />
              </Form.Item>
              <Form.Item name="port" label={t('senderConfigs.relayPort')}>
                <Input placeholder="587" className="relay-port" style={{ width: 90 }} />
              </Form.Item>
              <Form.Item name="security" label={t('senderConfigs.relaySecurity')}>
                <Select
                  style={{ width: 180 }}
                  className="relay-security"
                  options={RELAY_SECURITY.map((s) => ({ value: s, label: t(`senderConfigs.security_${s}`) }))}
                />
              </Form.Item>
              <Form.Item name="requireTls" label={t('senderConfigs.relayRequireTls')} valuePropName="checked">
                <Switch className="relay-require-tls" />
              </Form.Item>
              <Form.Item
                name="verifyCertificate"
                label={t('senderConfigs.relayVerifyCertificate')}
                valuePropName="checked"
              >
                <Switch className="relay-verify-certificate" />
              </Form.Item>
              <Form.Item name="username" label={t('senderConfigs.relayUsername')}>
                <Input className="relay-username" autoComplete="off" />
              </Form.Item>
              <Form.Item name="password" label={t('senderConfigs.relayPassword')}>
                <Input.Password
                  className="relay-password"
                  autoComplete="new-password"
                  placeholder={current?.hasPassword ? t('senderConfigs.relayPasswordKept') : undefined}
                  style={{ width: 260 }}
                />
              </Form.Item>
            </>
          )}
          footer={(current, refresh) =>
            current ? (
              <Typography.Paragraph className="relay-current">
                {t('senderConfigs.relayCurrent', { relay: describeRelay(current) })}{' '}
                <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
                  <Popconfirm
                    title={t('senderConfigs.relayRemoveConfirm')}
                    okButtonProps={{ danger: true }}
                    onConfirm={async () => {
                      await deleteSenderConfig('relay', current.id);
                      await refresh();
                    }}
                  >
                    <Button type="link" danger className="relay-remove">
                      {t('senderConfigs.relayRemove')}
                    </Button>
                  </Popconfirm>
                </Can>
              </Typography.Paragraph>
            ) : (
              <Typography.Paragraph type="secondary" className="relay-current">
                {t('senderConfigs.relayNone')}
              </Typography.Paragraph>
            )
          }
        />
      ),
    },
  ];

  return (
    <Card className="senders-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('senderConfigs.title')}
      </Typography.Title>
      <Tabs items={items} className="senders-tabs" destroyOnHidden />
    </Card>
  );
}
