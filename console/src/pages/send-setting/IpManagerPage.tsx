import { PERMISSIONS } from '@herald/shared/permissions';
import { DEDICATED_IP_A_RECORD_DAYS } from '@herald/shared/schemas/dedicated-ip.schema';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, Result, Space, Table, Tag, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  type DedicatedIpStatus,
  type DedicatedIpView,
  fetchDedicatedIps,
} from '../../api/dedicated-ips.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDate, formatDateTime } from '../../components/format-time.ts';
import { fenToYuan } from '../../components/money.ts';
import { IpPurchaseModal } from './IpPurchaseModal.tsx';

const CHARGE_PATH = '/accountSetting/financialMangement/charge';
const STATUS_COLORS: Record<DedicatedIpStatus, string> = {
  pending: 'processing',
  active: 'success',
  voided: 'error',
  expired: 'default',
};

/**
 * IP management (console-spec §2 /sendSetting/ipManager; product-spec §3, §4, §6, §9): the
 * account's dedicated IPs, each with its domain, its address (or that it waits for one), its
 * status, the A record to publish (the sending domain pointing at the address) with the date it
 * must be found by, and its period; buying more in a dialog. Paid accounts only: a free account
 * is sent to top up.
 */
export default function IpManagerPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [buying, setBuying] = useState(false);
  const ips = useQuery({ queryKey: ['dedicatedIps'], queryFn: fetchDedicatedIps });

  if (ips.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const page = ips.data;
  const paid = page?.paid ?? false;
  const noDomains = page !== undefined && page.domains.length === 0;
  const buyButton = (
    <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
      <Button
        type="primary"
        disabled={!paid || noDomains}
        title={noDomains ? t('dedicatedIps.noDomains') : undefined}
        onClick={() => setBuying(true)}
        data-testid="ip-manager-buy"
      >
        {t('dedicatedIps.buy')}
      </Button>
    </Can>
  );

  const empty = !page ? null : !paid ? (
    <Empty description={t('dedicatedIps.emptyFree')}>
      <Link to={CHARGE_PATH}>{t('dedicatedIps.upgrade')}</Link>
    </Empty>
  ) : (
    <Empty description={t('dedicatedIps.empty')} className="ip-manager-empty">
      {noDomains ? <Link to="/sendSetting/domain">{t('dedicatedIps.addDomain')}</Link> : buyButton}
    </Empty>
  );

  return (
    <Card className="ip-manager-page">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('dedicatedIps.title')}
        </Typography.Title>
        <Space wrap>
          {page && (
            <Typography.Text type="secondary">
              {t('dedicatedIps.balance', { balance: fenToYuan(page.balanceFen) })}
            </Typography.Text>
          )}
          {buyButton}
        </Space>
      </Flex>
      {page && !paid && (
        <Alert
          type="info"
          showIcon
          className="ip-manager-paid-only"
          style={{ marginBottom: 16 }}
          title={t('dedicatedIps.paidOnly')}
          action={<Link to={CHARGE_PATH}>{t('dedicatedIps.upgrade')}</Link>}
        />
      )}
      <Typography.Paragraph type="secondary">
        {t('dedicatedIps.intro', { days: DEDICATED_IP_A_RECORD_DAYS })}
      </Typography.Paragraph>
      <Table<DedicatedIpView>
        rowKey="id"
        className="ip-manager-table"
        loading={ips.isPending}
        dataSource={page?.list ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: empty }}
        columns={[
          { title: t('dedicatedIps.domain'), dataIndex: 'domain' },
          {
            title: t('dedicatedIps.address'),
            render: (_, ip) =>
              ip.address ? (
                <Typography.Text code className="dedicated-ip-address">
                  {ip.address}
                </Typography.Text>
              ) : (
                <Typography.Text type="secondary" className="dedicated-ip-waiting">
                  {t('dedicatedIps.waiting')}
                </Typography.Text>
              ),
          },
          {
            title: t('dedicatedIps.status'),
            render: (_, ip) => (
              <Tag color={STATUS_COLORS[ip.status]} className="dedicated-ip-status">
                {t(`dedicatedIps.statuses.${ip.status}`)}
              </Tag>
            ),
          },
          { title: t('dedicatedIps.aRecord'), render: (_, ip) => <ARecordCell ip={ip} /> },
          {
            title: t('dedicatedIps.period'),
            render: (_, ip) => (
              <Space direction="vertical" size={0}>
                <span>{t('dedicatedIps.monthsCount', { months: ip.months })}</span>
                {ip.startsAt !== null && ip.endsAt !== null && (
                  <Typography.Text type="secondary">
                    {formatDate(ip.startsAt)} – {formatDate(ip.endsAt)}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          {
            title: t('dedicatedIps.price'),
            render: (_, ip) => t('dedicatedIps.perMonth', { price: fenToYuan(ip.priceMonthFen) }),
          },
        ]}
      />
      {page && (
        <IpPurchaseModal
          open={buying}
          domains={page.domains}
          balanceFen={page.balanceFen}
          onClose={() => setBuying(false)}
          onBought={() => {
            setBuying(false);
            void queries.invalidateQueries({ queryKey: ['dedicatedIps'] });
          }}
        />
      )}
    </Card>
  );
}

/** The A record a purchase needs, and where its check stands. */
function ARecordCell({ ip }: { ip: DedicatedIpView }) {
  const { t } = useTranslation();
  const record = ip.aRecord;
  if (record.value === null)
    return <Typography.Text type="secondary">{t('dedicatedIps.aRecordLater')}</Typography.Text>;
  let state: ReactNode = null;
  if (ip.status === 'voided') {
    state = (
      <Typography.Text type="danger">
        {t('dedicatedIps.voided', { days: DEDICATED_IP_A_RECORD_DAYS })}
      </Typography.Text>
    );
  } else if (record.seenAt !== null) {
    state = (
      <Typography.Text type="success">
        {t('dedicatedIps.aRecordSeen', { at: formatDateTime(record.seenAt) })}
      </Typography.Text>
    );
  } else if (ip.status === 'active' && record.deadline !== null) {
    state = (
      <Typography.Text type="warning" className="dedicated-ip-deadline">
        {t('dedicatedIps.aRecordDue', { at: formatDateTime(record.deadline) })}
        {record.error ? ` (${t('dedicatedIps.aRecordFound', { found: record.error })})` : ''}
      </Typography.Text>
    );
  }
  return (
    <Space direction="vertical" size={0} className="dedicated-ip-arecord">
      <Typography.Text code className="dedicated-ip-record">
        {`${record.host} ${record.type} ${record.value}`}
      </Typography.Text>
      {state}
    </Space>
  );
}
