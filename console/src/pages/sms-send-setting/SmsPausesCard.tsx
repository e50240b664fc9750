import { PERMISSIONS } from '@herald/shared/permissions';
import type { SmsPauseStatus, SmsPauseView } from '@herald/shared/schemas/sms-protection.schema';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Popconfirm, Result, Segmented, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cancelSmsPause, continueSmsPause, fetchSmsPauses } from '../../api/sms-protection.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDateTime } from '../../components/format-time.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';

const STATUS_COLOURS: Record<SmsPauseStatus, string> = {
  paused: 'orange',
  continued: 'green',
  cancelled: 'default',
  expired: 'default',
};

/**
 * The pause records of anti-bombing (product-spec §3): each paused template with its type, how
 * many SMS it holds and over which period; an open one is continued (its SMS are sent) or
 * cancelled (they fail), each after a confirmation.
 */
export function SmsPausesCard() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [status, setStatus] = useState<SmsPauseStatus | 'all'>('all');
  const [page, setPage] = useState(1);
  const pauses = useQuery({
    queryKey: ['smsPauses', status, page],
    queryFn: () => fetchSmsPauses({ ...(status === 'all' ? {} : { status }), page, pageSize: 20 }),
    placeholderData: keepPreviousData,
  });
  const handled = (key: 'continued' | 'cancelled') => async () => {
    httpEffects().toast('success', t(`smsPauses.${key}Toast`), SUCCESS_TOAST_SECONDS);
    await queries.invalidateQueries({ queryKey: ['smsPauses'] });
    await queries.invalidateQueries({ queryKey: ['smsPauseAlerts'] });
  };
  const proceed = useMutation({ mutationFn: continueSmsPause, onSuccess: handled('continued') });
  const cancel = useMutation({ mutationFn: cancelSmsPause, onSuccess: handled('cancelled') });

  if (pauses.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  return (
    <Card className="sms-pauses">
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('smsPauses.recordsTitle')}
        </Typography.Title>
        <Segmented
          className="sms-pauses-filter"
          value={status}
          onChange={(value) => {
            setStatus(value as SmsPauseStatus | 'all');
            setPage(1);
          }}
          options={(['all', 'paused', 'continued', 'cancelled', 'expired'] as const).map((s) => ({
            value: s,
            label: t(`smsPauses.statuses.${s}`),
          }))}
        />
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t('smsPauses.recordsIntro')}
      </Typography.Paragraph>
      <Table<SmsPauseView>
        rowKey="id"
        className="sms-pauses-table"
        loading={pauses.isFetching}
        dataSource={pauses.data?.list ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page,
          pageSize: 20,
          total: pauses.data?.total ?? 0,
          hideOnSinglePage: true,
          onChange: setPage,
        }}
        locale={{ emptyText: <Empty description={t('smsPauses.empty')} /> }}
        columns={[
          {
            title: t('smsPauses.template'),
            render: (_, p) => `${p.templateName ?? t('smsPauses.deletedTemplate')} (${p.templateId})`,
          },
          {
            title: t('smsPauses.msgType'),
            render: (_, p) => t(`smsPauses.msgTypes.${p.msgType}`, { defaultValue: String(p.msgType) }),
          },
          { title: t('smsPauses.pausedCount'), dataIndex: 'pausedCount', className: 'sms-pause-count' },
          {
            title: t('smsPauses.period'),
            render: (_, p) => `${formatDateTime(p.startedAt)} – ${formatDateTime(p.lastRequestAt)}`,
          },
          {
            title: t('smsPauses.status'),
            render: (_, p) => (
              <Tag color={STATUS_COLOURS[p.status]} className="sms-pause-status">
                {t(`smsPauses.statuses.${p.status}`)}
              </Tag>
            ),
          },
          {
            title: t('smsPauses.handledOrExpires'),
            render: (_, p) =>
              p.handledAt
                ? formatDateTime(p.handledAt)
                : p.expiresAt
                  ? t('smsPauses.expiresAt', { at: formatDateTime(p.expiresAt) })
                  : '—',
          },
          {
            title: '',
            render: (_, p) =>
              p.status === 'paused' && (
                <Can code={PERMISSIONS.SMS_SETTINGS} level="full">
                  <Space>
                    <Popconfirm
                      title={t('smsPauses.continueConfirm', { count: p.pausedCount })}
                      onConfirm={() => proceed.mutateAsync(p.id)}
                      okButtonProps={{ className: 'sms-pause-continue-ok' }}
                    >
                      <Button type="link" className="sms-pause-continue">
                        {t('smsPauses.continue')}
                      </Button>
                    </Popconfirm>
                    <Popconfirm
                      title={t('smsPauses.cancelConfirm', { count: p.pausedCount })}
                      onConfirm={() => cancel.mutateAsync(p.id)}
                      okButtonProps={{ danger: true, className: 'sms-pause-cancel-ok' }}
                    >
                      <Button type="link" danger className="sms-pause-cancel">
                        {t('smsPauses.cancel')}
                      </Button>
                    </Popconfirm>
                  </Space>
                </Can>
              ),
          },
        ]}
      />
    </Card>
  );
}
