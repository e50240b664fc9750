import { QUOTA_RAISES_PER_MONTH } from '@herald/shared/limits';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Input, Result, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AdminAccountView, fetchAdminAccounts } from '../../api/admin-accounts.api.ts';
import { AccountCertificationModal } from './AccountCertificationModal.tsx';
import { AccountLimitsModal } from './AccountLimitsModal.tsx';
import { QuotaRaiseModal } from './QuotaRaiseModal.tsx';

const PAGE_SIZE = 20;

/**
 * The operators' plans and quotas (/admin/accounts, issue 16): customer accounts with their plan,
 * daily quota, today's usage against the limit and temporary increase; each row sets the plan and
 * quota or grants an increase, both after a confirmation. The server enforces every rule.
 */
export default function AdminAccountsPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const [editing, setEditing] = useState<AdminAccountView | null>(null);
  const [raising, setRaising] = useState<AdminAccountView | null>(null);
  const [certifying, setCertifying] = useState<AdminAccountView | null>(null);
  const list = useQuery({
    queryKey: ['admin-accounts', search, pageNum],
    queryFn: () => fetchAdminAccounts({ search, pageNum, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });

  if (list.isError) return <Result status="warning" title={t('adminAccounts.loadFailed')} />;

  return (
    <Card className="admin-accounts-page">
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }} gap={16} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('adminAccounts.title')}
        </Typography.Title>
        <Input.Search
          allowClear
          placeholder={t('adminAccounts.searchPlaceholder')}
          style={{ maxWidth: 320 }}
          data-testid="admin-accounts-search"
          onSearch={(value) => {
            setSearch(value.trim());
            setPageNum(1);
          }}
        />
      </Flex>
      <Table<AdminAccountView>
        rowKey="accountId"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          onChange: setPageNum,
          showSizeChanger: false,
        }}
        onRow={(row) => ({ 'data-user-name': row.userName }) as React.HTMLAttributes<HTMLElement>}
        locale={{ emptyText: <Empty description={t('adminAccounts.empty')} /> }}
        columns={[
          {
            title: t('adminAccounts.account'),
            render: (_, row) => (
              <Flex vertical>
                <span>{row.userName}</span>
                <Typography.Text type="secondary">{row.email}</Typography.Text>
              </Flex>
            ),
          },
          {
            title: t('adminAccounts.planLabel'),
            render: (_, row) => (
              <Tag color={row.plan === 'paid' ? 'gold' : undefined} className="admin-account-plan">
                {t(`adminAccounts.plan.${row.plan}`)}
              </Tag>
            ),
          },
          {
            title: t('adminAccounts.dailyQuotaLabel'),
            render: (_, row) => (
              <span className="admin-account-quota">{row.dailyQuota ?? t('adminAccounts.planDefault')}</span>
            ),
          },
          {
            title: t('adminAccounts.today'),
            render: (_, row) => (
              <span className="admin-account-usage">
                {row.limit === null
                  ? t('adminAccounts.usageUnlimited', { used: row.used })
                  : t('adminAccounts.usage', { used: row.used, limit: row.limit })}
              </span>
            ),
          },
          {
            title: t('adminAccounts.raise'),
            render: (_, row) => (
              <Flex vertical className="admin-account-raise">
                <span>
                  {row.raise
                    ? t('adminAccounts.raiseActive', { extra: row.raise.extra, until: row.raise.toDay })
                    : '—'}
                </span>
                <Typography.Text type="secondary">
                  {t('adminAccounts.raisesThisMonth', {
                    used: row.raisesThisMonth,
                    max: QUOTA_RAISES_PER_MONTH,
                  })}
                </Typography.Text>
              </Flex>
            ),
          },
          {
            title: t('smsFiling.certification.column'),
            render: (_, row) => (
              <Tag
                color={row.certification === 'enterprise' ? 'green' : undefined}
                className="admin-account-certification"
              >
                {t(`smsFiling.certification.levels.${row.certification}`)}
              </Tag>
            ),
          },
          {
            title: t('adminAccounts.state'),
            render: (_, row) =>
              row.state === 'active' ? null : <Tag color="red">{t(`adminAccounts.states.${row.state}`)}</Tag>,
          },
          {
            title: t('adminAccounts.actions'),
            render: (_, row) => (
              <Space size={0}>
                <Button type="link" onClick={() => setEditing(row)} data-testid="admin-account-limits">
                  {t('adminAccounts.editLimits')}
                </Button>
                <Button type="link" onClick={() => setRaising(row)} data-testid="admin-account-raise">
                  {t('adminAccounts.grantRaise')}
                </Button>
                <Button type="link" onClick={() => setCertifying(row)} data-testid="admin-account-certify">
                  {t('smsFiling.certification.set')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <AccountLimitsModal target={editing} onClose={() => setEditing(null)} />
      <QuotaRaiseModal target={raising} onClose={() => setRaising(null)} />
      <AccountCertificationModal target={certifying} onClose={() => setCertifying(null)} />
    </Card>
  );
}
