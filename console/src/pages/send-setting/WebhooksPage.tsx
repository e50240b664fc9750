import { PERMISSIONS } from '@herald/shared/permissions';
import { WEBHOOK_MAX_PER_ACCOUNT } from '@herald/shared/schemas/webhook.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Card, Empty, Flex, Popconfirm, Result, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Can } from '../../components/Can.tsx';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { ERROR_TOAST_SECONDS, SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';
import { WebhookFormModal } from './webhooks/WebhookFormModal.tsx';
import { WebhookLogDrawer } from './webhooks/WebhookLogDrawer.tsx';
import {
  deleteWebhook,
  fetchWebhooks,
  refreshWebhook,
  testWebhook,
  type WebhookView,
} from './webhooks/webhooks.api.ts';

/**
 * Webhooks (console-spec §2 /sendSetting/webhook): receivers of signed event pushes, each for one
 * API_USER or all; test push, refresh of an unavailable one, delete, and the delivery log.
 */
export default function WebhooksPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [editing, setEditing] = useState<WebhookView | 'new' | null>(null);
  const [logOf, setLogOf] = useState<WebhookView | null>(null);
  const webhooks = useQuery({ queryKey: ['webhooks', 'list'], queryFn: fetchWebhooks });
  const refresh = () => queries.invalidateQueries({ queryKey: ['webhooks', 'list'] });
  const remove = useMutation({ mutationFn: deleteWebhook, onSettled: refresh });
  const restore = useMutation({ mutationFn: refreshWebhook, onSettled: refresh });
  const test = useMutation({
    mutationFn: (w: WebhookView) => testWebhook(w.id),
    onSuccess: (result) => {
      if (result.ok) {
        httpEffects().toast(
          'success',
          t('webhooks.testOk', { ms: result.durationMs }),
          SUCCESS_TOAST_SECONDS,
        );
      } else {
        const detail = result.error ?? `HTTP ${result.status}`;
        httpEffects().toast('error', t('webhooks.testFailed', { detail }), ERROR_TOAST_SECONDS);
      }
    },
  });

  if (webhooks.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const count = webhooks.data?.length ?? 0;

  return (
    <Card className="webhooks-page">
      <Flex justify="space-between" align="center" gap="middle" style={{ marginBottom: 16 }} wrap>
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('webhooks.title')}
          </Typography.Title>
          <Typography.Text type="secondary">
            {t('webhooks.intro', { max: WEBHOOK_MAX_PER_ACCOUNT })}
          </Typography.Text>
        </div>
        <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
          <Button
            type="primary"
            className="webhook-add"
            disabled={count >= WEBHOOK_MAX_PER_ACCOUNT}
            onClick={() => setEditing('new')}
          >
            {t('webhooks.add')}
          </Button>
        </Can>
      </Flex>
      <Table<WebhookView>
        rowKey="id"
        className="webhooks-table"
        loading={webhooks.isPending}
        dataSource={webhooks.data ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t('webhooks.empty')} /> }}
        columns={[
          {
            title: t('webhooks.url'),
            render: (_, w) => (
              <Typography.Text className="webhook-url-cell" style={{ wordBreak: 'break-all' }}>
                {w.url}
              </Typography.Text>
            ),
          },
          {
            title: t('webhooks.events'),
            render: (_, w) => (
              <Space size={[0, 4]} wrap>
                {w.events.map((kind) => (
                  <Tag key={kind} className={`webhook-event-${kind}`}>
                    {t(`webhooks.event.${kind}`)}
                  </Tag>
                ))}
              </Space>
            ),
          },
          { title: t('webhooks.target'), render: (_, w) => w.apiUserName ?? t('webhooks.allApiUsers') },
          {
            title: t('webhooks.appKey'),
            render: (_, w) =>
              w.appKey ? (
                <Typography.Text copyable={{ text: w.appKey }}>{`${w.appKey.slice(0, 4)}…`}</Typography.Text>
              ) : (
                <Typography.Text type="secondary">{t('webhooks.noAppKey')}</Typography.Text>
              ),
          },
          {
            title: t('webhooks.status'),
            render: (_, w) => (
              <Badge
                className="webhook-status"
                status={w.status === 'normal' ? 'success' : 'error'}
                text={t(`webhooks.statusName.${w.status}`)}
              />
            ),
          },
          {
            title: t('webhooks.actions'),
            render: (_, w) => (
              <Space size={0} wrap>
                <Button type="link" className="webhook-log" onClick={() => setLogOf(w)}>
                  {t('webhooks.log')}
                </Button>
                <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
                  <Button
                    type="link"
                    className="webhook-test"
                    loading={test.isPending && test.variables?.id === w.id}
                    onClick={() => test.mutate(w)}
                  >
                    {t('webhooks.test')}
                  </Button>
                  {w.status === 'unavailable' && (
                    <Button type="link" className="webhook-refresh" onClick={() => restore.mutate(w.id)}>
                      {t('webhooks.refresh')}
                    </Button>
                  )}
                  <Button type="link" className="webhook-edit" onClick={() => setEditing(w)}>
                    {t('webhooks.edit')}
                  </Button>
                  <Popconfirm
                    title={t('webhooks.deleteConfirm', { url: w.url })}
                    okButtonProps={{ danger: true, className: 'webhook-delete-ok' }}
                    onConfirm={() => remove.mutateAsync(w.id)}
                  >
                    <Button type="link" danger className="webhook-delete">
                      {t('webhooks.delete')}
                    </Button>
                  </Popconfirm>
                </Can>
              </Space>
            ),
          },
        ]}
      />
      <WebhookFormModal
        webhook={editing}
        onClose={() => setEditing(null)}
        onKeyChanged={refresh}
        onSaved={async () => {
          setEditing(null);
          await refresh();
        }}
      />
      <WebhookLogDrawer webhook={logOf} onClose={() => setLogOf(null)} />
    </Card>
  );
}
