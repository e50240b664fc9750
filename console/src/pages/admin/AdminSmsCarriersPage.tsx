import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Popconfirm, Result, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  fetchSmsCarriers,
  removeSmsCarrier,
  SMS_CARRIERS_QUERY,
  type SmsCarrierView,
  setSmsCarrierEnabled,
} from '../../api/admin-sms-carriers.api.ts';
import { SmsCarrierFormModal } from './carriers/SmsCarrierFormModal.tsx';
import { SmsPricesCard } from './carriers/SmsPricesCard.tsx';
import { SmsRoutesCard } from './carriers/SmsRoutesCard.tsx';

/**
 * The operators' SMS carriers and routes (/admin/smsCarriers, issue 20): the connections with
 * their protocol, address, account and state, and the routes that send numbers to them. The
 * same service as the CLI's `sms:*` commands keeps the rules; passwords are write-only. Workers
 * read changes within a few seconds (the screen says how many), so nothing needs a restart.
 */
export default function AdminSmsCarriersPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [editing, setEditing] = useState<SmsCarrierView | 'new' | null>(null);
  const list = useQuery({ queryKey: SMS_CARRIERS_QUERY, queryFn: fetchSmsCarriers });
  const reload = () => queries.invalidateQueries({ queryKey: SMS_CARRIERS_QUERY });
  const toggle = useMutation({
    mutationFn: (row: SmsCarrierView) => setSmsCarrierEnabled(row.name, !row.enabled),
    onSettled: reload,
  });
  const remove = useMutation({ mutationFn: removeSmsCarrier, onSettled: reload });

  if (list.isError) return <Result status="warning" title={t('adminSmsCarriers.loadFailed')} />;
  const seconds = list.data?.refreshSeconds ?? 5;
  const carriers = list.data?.carriers ?? [];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} className="admin-sms-carriers-page">
      <Card>
        <Flex justify="space-between" align="center" gap={16} wrap>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('adminSmsCarriers.title')}
          </Typography.Title>
          <Button type="primary" data-testid="admin-carrier-add" onClick={() => setEditing('new')}>
            {t('adminSmsCarriers.add')}
          </Button>
        </Flex>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
          {t('adminSmsCarriers.intro', { seconds })}
        </Typography.Paragraph>
        <Table<SmsCarrierView>
          rowKey="id"
          className="admin-carriers-table"
          loading={list.isFetching}
          dataSource={carriers}
          pagination={false}
          scroll={{ x: 'max-content' }}
          onRow={(row) => ({ 'data-carrier-name': row.name }) as React.HTMLAttributes<HTMLElement>}
          locale={{ emptyText: <Empty description={t('adminSmsCarriers.empty')} /> }}
          columns={[
            { title: t('adminSmsCarriers.name'), dataIndex: 'name' },
            {
              title: t('adminSmsCarriers.protocol'),
              render: (_, row) => <Tag className="admin-carrier-protocol">{row.protocol.toUpperCase()}</Tag>,
            },
            {
              title: t('adminSmsCarriers.host'),
              render: (_, row) => <span className="admin-carrier-host">{row.host}</span>,
            },
            { title: t('adminSmsCarriers.systemId'), dataIndex: 'systemId' },
            { title: t('adminSmsCarriers.sourceAddr'), render: (_, row) => row.sourceAddr || '—' },
            {
              title: t('adminSmsCarriers.perSecond'),
              render: (_, row) =>
                row.perSecond > 0
                  ? t('adminSmsCarriers.perSecondValue', { count: row.perSecond })
                  : t('adminSmsCarriers.perSecondFromUrl'),
            },
            {
              title: t('adminSmsCarriers.status'),
              render: (_, row) => (
                <Tag color={row.enabled ? 'green' : undefined} className="admin-carrier-status">
                  {t(row.enabled ? 'adminSmsCarriers.enabled' : 'adminSmsCarriers.disabled')}
                </Tag>
              ),
            },
            {
              title: t('adminSmsCarriers.actions'),
              render: (_, row) => (
                <Space size={0}>
                  <Button type="link" className="admin-carrier-edit" onClick={() => setEditing(row)}>
                    {t('adminSmsCarriers.edit')}
                  </Button>
                  {row.enabled ? (
                    <Popconfirm
                      title={t('adminSmsCarriers.disableConfirm', { name: row.name, seconds })}
                      okText={t('adminSmsCarriers.confirm')}
                      cancelText={t('adminSmsCarriers.cancel')}
                      okButtonProps={{ className: 'admin-carrier-disable-ok' }}
                      onConfirm={() => toggle.mutateAsync(row)}
                    >
                      <Button type="link" className="admin-carrier-disable">
                        {t('adminSmsCarriers.disable')}
                      </Button>
                    </Popconfirm>
                  ) : (
                    <Button type="link" className="admin-carrier-enable" onClick={() => toggle.mutate(row)}>
                      {t('adminSmsCarriers.enable')}
                    </Button>
                  )}
                  <Popconfirm
                    title={t('adminSmsCarriers.removeConfirm', { name: row.name })}
                    okText={t('adminSmsCarriers.confirm')}
                    cancelText={t('adminSmsCarriers.cancel')}
                    okButtonProps={{ danger: true, className: 'admin-carrier-remove-ok' }}
                    onConfirm={() => remove.mutateAsync(row.name)}
                  >
                    <Button type="link" danger className="admin-carrier-remove">
                      {t('adminSmsCarriers.remove')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <SmsRoutesCard carriers={carriers} loading={list.isFetching} />
      <SmsPricesCard />
      <SmsCarrierFormModal target={editing} onClose={() => setEditing(null)} />
    </Space>
  );
}
