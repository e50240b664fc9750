import { PERMISSIONS } from '@herald/shared/permissions';
import type { QueueDetail } from '@herald/shared/schemas/queue.schema';
import { Button, Card, Empty, Flex, Input, Modal, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  deleteQueue,
  fetchQueueDetailList,
  type PauseView,
  recoverPausedQueue,
  resumeQueue,
  suspendQueue,
} from '../../api/queues.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDateTime, formatTime } from '../../components/format-time.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { ERROR_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';
import type { ChartPoint, QueueRow } from '../../stores/queue-status-merge.ts';
import { createQueueMonitor, type QueueMonitor } from './queue-monitor.ts';

type Row = QueueRow & Omit<QueueDetail, 'categoryId'>;
const when = (time: number | null) => (time === null ? '—' : formatDateTime(time));
const timeLabel = () => formatTime(Date.now());

/** A small line chart of the row's last points: in (blue), process (orange), out (green). */
function QueueChart({ points }: { points: readonly ChartPoint[] }) {
  const width = 160;
  const height = 40;
  const max = Math.max(1, ...points.flatMap((p) => [p.in, p.process, p.out]));
  const line = (pick: (p: ChartPoint) => number) =>
    points
      .map((p, i) => {
        const x = points.length === 1 ? width / 2 : (i / (points.length - 1)) * width;
        return `${x.toFixed(1)},${(height - 2 - (pick(p) / max) * (height - 4)).toFixed(1)}`;
      })
      .join(' ');
  return (
    <svg className="queue-chart" width={width} height={height} role="img" data-points={points.length}>
      <title>{points.map((p) => `${p.time} ${p.in}/${p.process}/${p.out}`).join('\n')}</title>
      {(
        [
          ['#1677ff', (p: ChartPoint) => p.in],
          ['#fa8c16', (p: ChartPoint) => p.process],
          ['#52c41a', (p: ChartPoint) => p.out],
        ] as const
      ).map(([color, pick]) => (
        <polyline key={color} fill="none" stroke={color} strokeWidth={1.5} points={line(pick)} />
      ))}
    </svg>
  );
}

/**
 * Queue management and the queue monitor (console-spec §2 /sendRelative/queue and
 * /sendResponse/queueStatus, §4, §8): the queues of each API_USER and sending domain with their
 * in / process / out counters and a rolling chart, polled every 5 s; suspend (with an optional
 * recover time), resume and delete queued mail, each confirmed; the current pauses with recover.
 */
export default function SendQueuePage() {
  const { t } = useTranslation();
  const [rows, setRows] = useState<readonly Row[]>([]);
  const [pauses, setPauses] = useState<PauseView[]>([]);
  const [loading, setLoading] = useState(true);
  const [suspending, setSuspending] = useState<Row | 'all' | null>(null);
  const [recoverAt, setRecoverAt] = useState('');
  const monitor = useRef<QueueMonitor | null>(null);

  useEffect(() => {
    const m = createQueueMonitor(
      {
        fetch: async () => {
          const answer = await fetchQueueDetailList();
          setPauses(answer.pauses);
          return answer.queues.map((q) => ({ ...q, categoryId: q.categoryId ?? '' }));
        },
        onRows: (next) => setRows(next as readonly Row[]),
        onError: (message) => {
          setPauses([]);
          httpEffects().toast('error', message, ERROR_TOAST_SECONDS);
        },
      },
      {
        setTimeout: (fn, ms) => window.setTimeout(fn, ms),
        clearTimeout: (h) => window.clearTimeout(h as number),
        label: timeLabel,
      },
    );
    monitor.current = m;
    void m.start().finally(() => setLoading(false));
    return () => m.stop();
  }, []);

  const refresh = () => monitor.current?.refresh();
  const conditionsOf = (row: Row) => ({ apiUserId: row.apiUserId ?? undefined, domain: row.domain });

  const confirmSuspend = async () => {
    const target = suspending;
    if (!target) return;
    const recover = recoverAt ? new Date(recoverAt).getTime() : undefined;
    await suspendQueue({ ...(target === 'all' ? {} : conditionsOf(target)), recoverAt: recover });
    setSuspending(null);
    setRecoverAt('');
    await refresh();
  };

  const columns = [
    { title: t('queues.apiUser'), dataIndex: 'apiUserName', render: (v: string) => v || '—' },
    { title: t('queues.domain'), dataIndex: 'domain' },
    { title: t('queues.in'), dataIndex: 'in', className: 'queue-in' },
    { title: t('queues.process'), dataIndex: 'process', className: 'queue-process' },
    { title: t('queues.out'), dataIndex: 'out', className: 'queue-out' },
    { title: t('queues.chart'), render: (_: unknown, row: Row) => <QueueChart points={row.chart} /> },
    {
      title: t('queues.state'),
      render: (_: unknown, row: Row) =>
        row.paused ? (
          <Tag color="orange" className="queue-state">
            {t('queues.paused')}
          </Tag>
        ) : (
          <Tag color="green" className="queue-state">
            {t('queues.running')}
          </Tag>
        ),
    },
    {
      title: t('queues.actions'),
      render: (_: unknown, row: Row) => (
        <Can code={PERMISSIONS.EMAIL_SEND} level="full" fallback="—">
          <Space size={0}>
            {row.paused ? (
              <Popconfirm
                title={t('queues.resumeConfirm', { apiUser: row.apiUserName, domain: row.domain })}
                onConfirm={async () => {
                  await resumeQueue(conditionsOf(row));
                  await refresh();
                }}
              >
                <Button type="link" className="queue-resume">
                  {t('queues.resume')}
                </Button>
              </Popconfirm>
            ) : (
              <Button type="link" className="queue-suspend" onClick={() => setSuspending(row)}>
                {t('queues.suspend')}
              </Button>
            )}
            <Popconfirm
              title={t('queues.deleteConfirm', { apiUser: row.apiUserName, domain: row.domain })}
              okButtonProps={{ danger: true }}
              onConfirm={async () => {
                await deleteQueue(conditionsOf(row));
                await refresh();
              }}
            >
              <Button type="link" danger className="queue-delete">
                {t('queues.delete')}
              </Button>
            </Popconfirm>
          </Space>
        </Can>
      ),
    },
  ];

  const condition = (p: PauseView) =>
    [
      p.apiUserId === null
        ? t('queues.allApiUsers')
        : (rows.find((r) => r.apiUserId === p.apiUserId)?.apiUserName ?? `#${p.apiUserId}`),
      p.domain ?? t('queues.allDomains'),
      p.labelId === null ? null : `${t('queues.label')} #${p.labelId}`,
    ]
      .filter(Boolean)
      .join(' / ');

  return (
    <Card className="queue-page">
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }} wrap gap="middle">
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('queues.title')}
        </Typography.Title>
        <Space>
          <Button className="queue-refresh" onClick={() => void refresh()}>
            {t('queues.refresh')}
          </Button>
          <Can code={PERMISSIONS.EMAIL_SEND} level="full">
            <Button className="queue-suspend-all" onClick={() => setSuspending('all')}>
              {t('queues.suspendAll')}
            </Button>
          </Can>
        </Space>
      </Flex>
      <Typography.Paragraph type="secondary">{t('queues.intro')}</Typography.Paragraph>
      <Table<Row>
        rowKey={(row) => `${row.apiUserName}\u0000${row.domain}`}
        className="queue-table"
        loading={loading}
        dataSource={[...rows]}
        pagination={false}
        columns={columns}
        locale={{ emptyText: <Empty description={t('queues.empty')} /> }}
      />
      {pauses.length > 0 && (
        <>
          <Typography.Title level={5} style={{ marginTop: 24 }}>
            {t('queues.pauses')}
          </Typography.Title>
          <Table<PauseView>
            rowKey="id"
            className="queue-pauses"
            dataSource={pauses}
            pagination={false}
            columns={[
              { title: t('queues.conditions'), render: (_, p) => condition(p) },
              { title: t('queues.startAt'), render: (_, p) => when(p.startAt) },
              { title: t('queues.recoverAt'), render: (_, p) => when(p.recoverAt) },
              { title: t('queues.expiresAt'), render: (_, p) => when(p.expiresAt) },
              {
                title: t('queues.actions'),
                render: (_, p) => (
                  <Can code={PERMISSIONS.EMAIL_SEND} level="full" fallback="—">
                    <Popconfirm
                      title={t('queues.recoverConfirm')}
                      onConfirm={async () => {
                        await recoverPausedQueue(p.id);
                        await refresh();
                      }}
                    >
                      <Button type="link" className="queue-recover">
                        {t('queues.recover')}
                      </Button>
                    </Popconfirm>
                  </Can>
                ),
              },
            ]}
          />
        </>
      )}
      <Modal
        open={suspending !== null}
        className="queue-suspend-modal"
        title={t('queues.suspendTitle')}
        okText={t('queues.suspend')}
        cancelText={t('queues.cancel')}
        okButtonProps={{ className: 'queue-suspend-ok' }}
        onOk={confirmSuspend}
        onCancel={() => setSuspending(null)}
        destroyOnHidden
      >
        <Typography.Paragraph>
          {suspending === 'all' || suspending === null
            ? t('queues.suspendAllConfirm')
            : t('queues.suspendConfirm', { apiUser: suspending.apiUserName, domain: suspending.domain })}
        </Typography.Paragraph>
        <Typography.Text>{t('queues.recoverAtOptional')}</Typography.Text>
        <Input
          type="datetime-local"
          className="queue-recover-at"
          value={recoverAt}
          onChange={(e) => setRecoverAt(e.target.value)}
        />
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          {t('queues.noRecoverHint')}
        </Typography.Paragraph>
      </Modal>
    </Card>
  );
}
