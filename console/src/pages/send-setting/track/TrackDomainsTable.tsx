import { PERMISSIONS } from '@herald/shared/permissions';
import { useMutation } from '@tanstack/react-query';
import { Button, Empty, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  checkTrackDomain,
  deleteTrackDomain,
  setDefaultTrackDomain,
  type TrackDomainView,
} from '../../../api/tracking.api.ts';
import { Can } from '../../../components/Can.tsx';
import { recordErrorText } from '../DomainRecordError.tsx';

/**
 * The account's tracking domains: the CNAME to configure and what DNS has, the check status
 * with its reason, the switches, default and HTTPS; check now, make default, edit, delete.
 */
export function TrackDomainsTable({
  domains,
  loading,
  onEdit,
  onChanged,
}: {
  domains: TrackDomainView[];
  loading: boolean;
  onEdit: (domain: TrackDomainView) => void;
  onChanged: () => unknown;
}) {
  const { t } = useTranslation();
  const check = useMutation({ mutationFn: checkTrackDomain, onSettled: onChanged });
  const makeDefault = useMutation({ mutationFn: setDefaultTrackDomain, onSettled: onChanged });
  const remove = useMutation({ mutationFn: deleteTrackDomain, onSettled: onChanged });
  const switches = (d: TrackDomainView) =>
    (['open', 'click', 'unsubscribe'] as const)
      .filter((k) => d[k])
      .map((k) => <Tag key={k}>{t(`tracking.${k}`)}</Tag>);

  return (
    <Table<TrackDomainView>
      rowKey="id"
      className="track-domains-table"
      loading={loading}
      dataSource={domains}
      pagination={false}
      // Each column as wide as its content (host names and records are not broken mid-word); the
      // status column wraps its check message at a readable width.
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <Empty description={t('tracking.empty')} /> }}
      columns={[
        {
          title: t('tracking.name'),
          render: (_, d) => (
            <Space size={4} wrap>
              <Typography.Text strong>{d.name}</Typography.Text>
              {d.isDefault && (
                <Tag color="blue" className="track-domain-is-default">
                  {t('tracking.default')}
                </Tag>
              )}
            </Space>
          ),
        },
        { title: t('tracking.hostRecord'), dataIndex: 'hostRecord' },
        { title: t('tracking.primaryDomain'), dataIndex: 'primaryDomain' },
        {
          title: t('tracking.recordToConfigure'),
          render: (_, d) => (
            <Typography.Text copyable={{ text: d.recordValue }} className="track-record-value">
              CNAME {d.recordValue}
            </Typography.Text>
          ),
        },
        { title: t('tracking.existingRecord'), render: (_, d) => d.existingRecord ?? '—' },
        {
          title: t('tracking.status'),
          width: 280,
          render: (_, d) => (
            <Space direction="vertical" size={0}>
              <Tag
                color={d.status === 'verified' ? 'green' : 'orange'}
                className={`track-status-${d.status}`}
              >
                {t(`tracking.statuses.${d.status}`)}
              </Tag>
              {d.checkError && (
                <Typography.Text type="danger" className="track-domain-error" style={{ fontSize: 12 }}>
                  {recordErrorText({
                    error: d.checkError,
                    errorCode: d.checkErrorCode,
                    errorParams: d.checkErrorParams,
                  })}
                </Typography.Text>
              )}
            </Space>
          ),
        },
        { title: t('tracking.icpStatus'), render: () => t('tracking.icpUnchecked') },
        { title: t('tracking.switches'), render: (_, d) => switches(d) },
        {
          title: 'HTTPS',
          render: (_, d) => (d.https ? <Tag color="green">{t('tracking.httpsOn')}</Tag> : '—'),
        },
        {
          title: t('tracking.actions'),
          fixed: 'right',
          render: (_, d) => (
            <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full" fallback="—">
              <Space size={0} wrap>
                <Button
                  type="link"
                  className="track-domain-check"
                  loading={check.isPending && check.variables === d.id}
                  onClick={() => check.mutate(d.id)}
                >
                  {t('tracking.check')}
                </Button>
                {!d.isDefault && (
                  <Button
                    type="link"
                    className="track-domain-default"
                    disabled={d.status !== 'verified'}
                    title={d.status !== 'verified' ? t('tracking.defaultNeedsVerified') : undefined}
                    onClick={() => makeDefault.mutate(d.id)}
                  >
                    {t('tracking.setDefault')}
                  </Button>
                )}
                <Button type="link" className="track-domain-edit" onClick={() => onEdit(d)}>
                  {t('tracking.edit')}
                </Button>
                <Popconfirm
                  title={t('tracking.deleteConfirm', { name: d.name })}
                  okButtonProps={{ danger: true, className: 'track-domain-delete-ok' }}
                  onConfirm={() => remove.mutateAsync(d.id)}
                >
                  <Button type="link" danger className="track-domain-delete">
                    {t('tracking.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            </Can>
          ),
        },
      ]}
    />
  );
}
