import { PERMISSIONS } from '@herald/shared/permissions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Descriptions, Drawer, Empty, Result, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Can } from '../../../components/Can.tsx';
import { formatDateTime } from '../../../components/format-time.ts';
import {
  fetchWebhookLog,
  replayWebhookDelivery,
  type WebhookAttemptView,
  type WebhookView,
} from './webhooks.api.ts';

const PAGE_SIZE = 20;
const when = (time: number) => formatDateTime(time);

/** The request body as its fields, for reading (it is form-encoded on the wire). */
function BodyFields({ body }: { body: string }) {
  const fields = [...new URLSearchParams(body).entries()];
  return (
    <Descriptions size="small" column={1} bordered className="webhook-log-body">
      {fields.map(([name, value]) => (
        <Descriptions.Item key={name} label={name}>
          <Typography.Text style={{ wordBreak: 'break-all' }}>{value}</Typography.Text>
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

/** Every push attempt of a webhook, newest first, with what was sent and answered; replay queues one more. */
export function WebhookLogDrawer({ webhook, onClose }: { webhook: WebhookView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [page, setPage] = useState(1);
  const log = useQuery({
    queryKey: ['webhooks', 'log', webhook?.id, page],
    queryFn: () => fetchWebhookLog(webhook?.id ?? 0, page, PAGE_SIZE),
    enabled: webhook !== null,
    refetchInterval: 5000,
  });
  const replay = useMutation({
    mutationFn: (row: WebhookAttemptView) => replayWebhookDelivery(webhook?.id ?? 0, row.deliveryId),
    onSettled: () => queries.invalidateQueries({ queryKey: ['webhooks', 'log', webhook?.id] }),
  });

  return (
    <Drawer
      open={webhook !== null}
      onClose={() => {
        setPage(1);
        onClose();
      }}
      width={960}
      className="webhook-log-drawer"
      title={t('webhooks.logTitle', { url: webhook?.url ?? '' })}
      destroyOnHidden
    >
      {log.isError ? (
        <Result status="warning" title={t('common.loadFailed')} />
      ) : (
        <Table<WebhookAttemptView>
          rowKey="id"
          size="small"
          className="webhook-log-table"
          loading={log.isPending}
          dataSource={log.data?.list ?? []}
          locale={{ emptyText: <Empty description={t('webhooks.logEmpty')} /> }}
          expandable={{ expandedRowRender: (row) => <BodyFields body={row.requestBody} /> }}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: log.data?.total ?? 0,
            onChange: setPage,
            hideOnSinglePage: true,
          }}
          columns={[
            { title: t('webhooks.time'), render: (_, r) => when(r.at), width: 170 },
            {
              title: t('webhooks.eventColumn'),
              render: (_, r) => <Tag>{t(`webhooks.event.${r.event}`)}</Tag>,
            },
            { title: t('webhooks.recipient'), dataIndex: 'recipient', ellipsis: true },
            {
              title: t('webhooks.responseCode'),
              render: (_, r) => (
                <Tag color={r.responseCode === 200 ? 'green' : 'red'} title={r.error ?? undefined}>
                  {r.responseCode ?? t('webhooks.noAnswer')}
                </Tag>
              ),
            },
            { title: t('webhooks.duration'), render: (_, r) => `${r.durationMs} ms` },
            { title: t('webhooks.attempt'), dataIndex: 'attempt', width: 70 },
            { title: t('webhooks.deliveryStatus'), render: (_, r) => t(`webhooks.delivery.${r.status}`) },
            {
              title: t('webhooks.actions'),
              render: (_, r) => (
                <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full" fallback="—">
                  <Button
                    type="link"
                    className="webhook-replay"
                    disabled={r.status === 'pending' || r.status === 'sending'}
                    onClick={() => replay.mutate(r)}
                  >
                    {t('webhooks.replay')}
                  </Button>
                </Can>
              ),
            },
          ]}
        />
      )}
    </Drawer>
  );
}
