import { PERMISSIONS } from '@herald/shared/permissions';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Empty,
  Flex,
  Input,
  Popconfirm,
  Result,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { fetchAddressLists } from '../../api/address-lists.api.ts';
import {
  deleteSubscription,
  fetchSubscriptions,
  type SubscriptionView,
} from '../../api/subscriptions.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDateTime } from '../../components/format-time.ts';

export const SUBSCRIPTIONS_PATH = '/sendRelative/subscription';
export const SUBSCRIPTION_ADD_PATH = '/sendRelative/subscription/add';
export const SUBSCRIPTION_EDIT_PATH = '/sendRelative/subscription/edit';
export const SUBSCRIPTION_CONFIG_PATH = '/sendRelative/subscription/config';
const SEND = PERMISSIONS.EMAIL_SEND;
const PAGE_SIZE = 20;

/**
 * Email subscriptions (console-spec §2 /sendRelative/subscription): the account's subscriptions
 * with their list, display mode and confirmation, found by name; each leads to its code, its
 * settings and its deletion, which the confirmation says stops its page and forms. Subscriptions
 * fill address lists, so a free account is told where to upgrade instead.
 */
export default function SubscriptionsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [name, setName] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const query = { name: name || undefined, pageNum, pageSize: PAGE_SIZE };
  const list = useQuery({
    queryKey: ['subscriptions', query],
    queryFn: () => fetchSubscriptions(query),
    placeholderData: keepPreviousData,
  });
  // Only for the paid flag: subscriptions fill address lists, which are for paid accounts.
  const lists = useQuery({
    queryKey: ['addressLists', { pageNum: 1, pageSize: 1 }],
    queryFn: () => fetchAddressLists({ pageNum: 1, pageSize: 1 }),
  });
  const remove = useMutation({
    mutationFn: deleteSubscription,
    onSettled: () => queries.invalidateQueries({ queryKey: ['subscriptions'] }),
  });

  if (list.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const free = lists.data?.paid === false;
  const add = !free && (
    <Can code={SEND} level="full">
      <Button type="primary" className="subscription-add" onClick={() => navigate(SUBSCRIPTION_ADD_PATH)}>
        {t('subscriptions.add')}
      </Button>
    </Can>
  );

  return (
    <Card className="subscriptions-page">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('subscriptions.title')}
        </Typography.Title>
        {add}
      </Flex>
      <Typography.Paragraph type="secondary">{t('subscriptions.intro')}</Typography.Paragraph>
      {free && (
        <Alert
          type="info"
          showIcon
          className="subscriptions-paid-only"
          style={{ marginBottom: 16 }}
          title={t('subscriptions.paidOnly')}
          action={<Link to="/accountSetting/financialMangement/charge">{t('subscriptions.upgrade')}</Link>}
        />
      )}
      <Input.Search
        allowClear
        placeholder={t('subscriptions.search')}
        className="subscriptions-search"
        style={{ maxWidth: 320, marginBottom: 16 }}
        onSearch={(value) => {
          setName(value.trim());
          setPageNum(1);
        }}
      />
      <Table<SubscriptionView>
        rowKey="id"
        className="subscriptions-table"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        scroll={{ x: true }}
        onRow={(row) => ({ 'data-subscription': row.name }) as React.HTMLAttributes<HTMLElement>}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          onChange: setPageNum,
          showSizeChanger: false,
          hideOnSinglePage: true,
        }}
        locale={{
          emptyText: name ? (
            <Empty description={t('subscriptions.emptyFiltered')} />
          ) : (
            <Empty description={t('subscriptions.empty')} className="subscriptions-empty">
              {add}
            </Empty>
          ),
        }}
        columns={[
          { title: t('subscriptions.name'), dataIndex: 'name' },
          {
            title: t('subscriptions.list'),
            render: (_, row) =>
              row.listName === null ? (
                <Typography.Text type="secondary">{t('subscriptions.listDeleted')}</Typography.Text>
              ) : (
                <Space direction="vertical" size={0} className="subscription-list">
                  <Link to={`/sendRelative/address/addressEdit?id=${row.listId}`}>{row.listName}</Link>
                  <Typography.Text type="secondary" className="nowrap">
                    {row.listAddress}
                  </Typography.Text>
                </Space>
              ),
          },
          {
            title: t('subscriptions.displayMode'),
            render: (_, row) => (
              <Space>
                <span
                  aria-hidden
                  style={{
                    display: 'inline-block',
                    width: 12,
                    height: 12,
                    borderRadius: 2,
                    background: row.themeColor,
                  }}
                />
                {t(`subscribe.mode.${row.displayMode}`)}
              </Space>
            ),
          },
          {
            title: t('subscriptions.confirm'),
            render: (_, row) =>
              row.confirm ? (
                <Tag color="blue" className="subscription-confirm-on">
                  {t('subscriptions.confirmOn')}
                </Tag>
              ) : (
                <Tag className="subscription-confirm-off">{t('subscriptions.confirmOff')}</Tag>
              ),
          },
          {
            title: t('subscriptions.updatedAt'),
            render: (_, row) => <span className="nowrap">{formatDateTime(row.updatedAt)}</span>,
          },
          {
            title: t('subscriptions.actions'),
            render: (_, row) => (
              <Space size={0}>
                <Button
                  type="link"
                  className="subscription-config"
                  onClick={() => navigate(`${SUBSCRIPTION_CONFIG_PATH}?id=${row.id}`)}
                >
                  {t('subscriptions.config')}
                </Button>
                <Can code={SEND} level="full">
                  <Button
                    type="link"
                    className="subscription-edit"
                    onClick={() => navigate(`${SUBSCRIPTION_EDIT_PATH}?id=${row.id}`)}
                  >
                    {t('subscriptions.edit')}
                  </Button>
                  <Popconfirm
                    title={t('subscriptions.deleteConfirm', { name: row.name })}
                    okText={t('subscriptions.delete')}
                    cancelText={t('subscriptions.cancel')}
                    okButtonProps={{ danger: true, className: 'subscription-delete-ok' }}
                    onConfirm={() => remove.mutateAsync(row.id)}
                  >
                    <Button type="link" danger className="subscription-delete">
                      {t('subscriptions.delete')}
                    </Button>
                  </Popconfirm>
                </Can>
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
