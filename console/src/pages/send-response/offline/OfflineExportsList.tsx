import { PERMISSIONS } from '@herald/shared/permissions';
import type { ExportChannel, ExportStatus } from '@herald/shared/schemas/export.schema';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Empty,
  Flex,
  Popconfirm,
  Progress,
  Result,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Can } from '../../../components/Can.tsx';
import { formatDate, formatDateTime } from '../../../components/format-time.ts';
import { VerifyIdentityModal } from '../../../components/VerifyIdentityModal.tsx';
import { httpEffects } from '../../../infra/http/http-effects.ts';
import { HttpError } from '../../../infra/http/http-errors.ts';
import { ERROR_TOAST_SECONDS } from '../../../infra/http/http-exceptions.ts';
import { useSessionStore } from '../../../stores/session.store.ts';
import {
  deleteExport,
  downloadExport,
  type ExportView,
  fetchExports,
  invalidateExport,
  retryExport,
} from './offline-exports.api.ts';

const PAGE_SIZE = 20;
const POLL_MS = 2000;
const COLORS: Record<ExportStatus, string> = {
  exporting: 'processing',
  failed: 'error',
  using: 'success',
  used: 'default',
  expired: 'warning',
  voided: 'default',
  deleted: 'default',
};

const when = (ms: number | null) => (ms ? formatDateTime(ms) : '—');
const day = (ms: number) => formatDate(ms);
function size(bytes: number | null): string {
  if (bytes === null) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** What differs between the email and the SMS offline screens: texts and permission code. */
const CHANNELS = {
  email: {
    code: PERMISSIONS.EMAIL_RESPONSE,
    title: 'exports.title',
    hint: 'exports.hint',
    empty: 'exports.empty',
  },
  sms: {
    code: PERMISSIONS.SMS_RESPONSE,
    title: 'exports.smsTitle',
    hint: 'exports.hint',
    empty: 'exports.smsEmpty',
  },
} as const;

/**
 * Offline exports of one channel (console-spec §2 /sendResponse/offline, /s_sendResponse/offline):
 * the exports asked for from that channel's data screens, polled while any is running, each
 * downloadable for 7 days once ready; a failed one can be retried, any live one marked invalid
 * or deleted (both confirmed). Download buttons are hidden when the account hides delivery
 * downloads, and are downloads (not for view-only users).
 */
export function OfflineExportsList({ channel }: { channel: ExportChannel }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const hideExport = useSessionStore((state) => state.hideExport);
  const [page, setPage] = useState(1);
  const [verifying, setVerifying] = useState<ExportView | null>(null);
  const texts = CHANNELS[channel];
  const list = useQuery({
    queryKey: ['exports', channel, page],
    queryFn: () => fetchExports(channel, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.data.some((r) => r.status === 'exporting') ? POLL_MS : false,
  });
  const refresh = () => queries.invalidateQueries({ queryKey: ['exports', channel] });
  const act = useMutation({
    mutationFn: ({ row, action }: { row: ExportView; action: 'invalid' | 'retry' | 'delete' }) =>
      action === 'invalid'
        ? invalidateExport(row)
        : action === 'retry'
          ? retryExport(row)
          : deleteExport(row),
    onSettled: refresh,
  });

  const download = async (row: ExportView) => {
    try {
      await downloadExport(row);
      await refresh();
    } catch (error) {
      if (error instanceof HttpError && error.code === 'VERIFY_DOWNLOAD_REQUIRED') setVerifying(row);
      else
        httpEffects().toast(
          'error',
          error instanceof Error ? error.message : String(error),
          ERROR_TOAST_SECONDS,
        );
      if (error instanceof HttpError && error.status === 410) await refresh();
    }
  };

  const R = texts.code;
  const actions = (r: ExportView) => (
    <Flex gap={4} wrap>
      {(r.status === 'using' || r.status === 'used') && !hideExport && (
        <Button type="link" size="small" className="export-download" onClick={() => download(r)}>
          {t('exports.download')}
        </Button>
      )}
      <Can code={R} level="full">
        {r.status === 'failed' && (
          <Button
            type="link"
            size="small"
            className="export-retry"
            onClick={() => act.mutate({ row: r, action: 'retry' })}
          >
            {t('exports.retry')}
          </Button>
        )}
        {['exporting', 'failed', 'using', 'used'].includes(r.status) && (
          <Popconfirm
            title={t('exports.invalidConfirm')}
            okButtonProps={{ danger: true, className: 'export-invalid-ok' }}
            onConfirm={() => act.mutateAsync({ row: r, action: 'invalid' })}
          >
            <Button type="link" size="small" className="export-invalid">
              {t('exports.invalid')}
            </Button>
          </Popconfirm>
        )}
        <Popconfirm
          title={t('exports.deleteConfirm')}
          okButtonProps={{ danger: true, className: 'export-delete-ok' }}
          onConfirm={() => act.mutateAsync({ row: r, action: 'delete' })}
        >
          <Button type="link" size="small" danger className="export-delete">
            {t('exports.delete')}
          </Button>
        </Popconfirm>
      </Can>
    </Flex>
  );

  return (
    <Card className={`offline-exports-page offline-exports-${channel}`}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t(texts.title)}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t(texts.hint)}</Typography.Paragraph>
      {list.isError ? (
        <Result status="warning" title={t('common.loadFailed')} />
      ) : (
        <Table<ExportView>
          rowKey="id"
          className="offline-exports-table"
          loading={list.isLoading}
          dataSource={list.data?.data ?? []}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: list.data?.total ?? 0,
            showSizeChanger: false,
            hideOnSinglePage: true,
            onChange: setPage,
          }}
          locale={{ emptyText: <Empty description={t(texts.empty)} /> }}
          scroll={{ x: 1200 }}
          columns={[
            { title: t('exports.type'), width: 120, render: (_, r) => t(`exports.types.${r.type}`) },
            { title: t('exports.range'), render: (_, r) => `${day(r.startTime)} – ${day(r.endTime)}` },
            {
              title: t('exports.status'),
              render: (_, r) => (
                <Tooltip title={r.error}>
                  <Tag color={COLORS[r.status]} className={`export-status export-status-${r.status}`}>
                    {t(`exports.statuses.${r.status}`)}
                  </Tag>
                </Tooltip>
              ),
            },
            {
              title: t('exports.progress'),
              width: 160,
              render: (_, r) => (
                <Progress
                  percent={r.progress}
                  size="small"
                  status={
                    r.status === 'failed' ? 'exception' : r.status === 'exporting' ? 'active' : undefined
                  }
                />
              ),
            },
            { title: t('exports.rows'), dataIndex: 'rows' },
            { title: t('exports.size'), render: (_, r) => size(r.fileSize) },
            { title: t('exports.createdAt'), render: (_, r) => when(r.createdAt) },
            { title: t('exports.expiresAt'), render: (_, r) => when(r.expiresAt) },
            { title: t('exports.actions'), render: (_, r) => actions(r) },
          ]}
        />
      )}
      <VerifyIdentityModal
        kind="download"
        open={verifying !== null}
        onCancel={() => setVerifying(null)}
        onVerified={() => {
          const row = verifying;
          setVerifying(null);
          if (row) void download(row);
        }}
      />
    </Card>
  );
}
