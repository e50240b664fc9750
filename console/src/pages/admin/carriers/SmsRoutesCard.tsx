import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Popconfirm, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  removeSmsRoute,
  SMS_CARRIERS_QUERY,
  type SmsCarrierView,
} from '../../../api/admin-sms-carriers.api.ts';
import { SmsRouteFormModal } from './SmsRouteFormModal.tsx';
import { kindKey } from './sms-route-kinds.ts';

interface RouteRow {
  id: number;
  country: string;
  prefix: string;
  kind: string;
  priority: number;
  carrier: string;
  carrierEnabled: boolean;
}

/**
 * Every route with the carrier it sends to, in the carriers' order and by priority within each:
 * which numbers (country, national prefix, kind) go where. Adding picks the carrier; removing
 * one asks first.
 */
export function SmsRoutesCard({ carriers, loading }: { carriers: SmsCarrierView[]; loading: boolean }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [adding, setAdding] = useState(false);
  const remove = useMutation({
    mutationFn: (row: RouteRow) => removeSmsRoute(row.carrier, row.id),
    onSettled: () => queries.invalidateQueries({ queryKey: SMS_CARRIERS_QUERY }),
  });
  const rows: RouteRow[] = carriers.flatMap((c) =>
    c.routes.map((r) => ({ ...r, carrier: c.name, carrierEnabled: c.enabled })),
  );
  const kindText = (kind: string) => t(`adminSmsCarriers.kinds.${kindKey(kind)}`);

  const addButton = (
    <Tooltip title={carriers.length === 0 ? t('adminSmsCarriers.noCarrier') : undefined}>
      <Button
        type="primary"
        data-testid="admin-route-add"
        disabled={carriers.length === 0}
        onClick={() => setAdding(true)}
      >
        {t('adminSmsCarriers.addRoute')}
      </Button>
    </Tooltip>
  );

  return (
    <Card>
      <Flex justify="space-between" align="center" gap={16} wrap style={{ marginBottom: 16 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('adminSmsCarriers.routes')}
        </Typography.Title>
        {addButton}
      </Flex>
      <Table<RouteRow>
        rowKey="id"
        className="admin-routes-table"
        loading={loading}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('adminSmsCarriers.routesEmpty')} /> }}
        columns={[
          { title: t('adminSmsCarriers.country'), dataIndex: 'country' },
          {
            title: t('adminSmsCarriers.prefix'),
            render: (_, r) => r.prefix || t('adminSmsCarriers.allNumbers'),
          },
          { title: t('adminSmsCarriers.kind'), render: (_, r) => kindText(r.kind) },
          {
            title: t('adminSmsCarriers.carrier'),
            render: (_, r) => (
              <Flex gap={8} align="center">
                <span>{r.carrier}</span>
                {!r.carrierEnabled && <Tag>{t('adminSmsCarriers.disabled')}</Tag>}
              </Flex>
            ),
          },
          { title: t('adminSmsCarriers.priority'), dataIndex: 'priority' },
          {
            title: t('adminSmsCarriers.actions'),
            render: (_, r) => (
              <Popconfirm
                title={t('adminSmsCarriers.routeRemoveConfirm')}
                okText={t('adminSmsCarriers.confirm')}
                cancelText={t('adminSmsCarriers.cancel')}
                okButtonProps={{ danger: true, className: 'admin-route-remove-ok' }}
                onConfirm={() => remove.mutateAsync(r)}
              >
                <Button type="link" danger className="admin-route-remove">
                  {t('adminSmsCarriers.routeRemove')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
      <SmsRouteFormModal open={adding} carriers={carriers} onClose={() => setAdding(false)} />
    </Card>
  );
}
