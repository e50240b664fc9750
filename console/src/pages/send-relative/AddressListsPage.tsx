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
import { type AddressListView, deleteAddressList, fetchAddressLists } from '../../api/address-lists.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDateTime } from '../../components/format-time.ts';
import { AddressListFormModal } from './address-lists/AddressListFormModal.tsx';

export const ADDRESS_EDIT_PATH = '/sendRelative/address/addressEdit';
const SEND = PERMISSIONS.EMAIL_SEND;
const PAGE_SIZE = 20;

/**
 * Email address lists (console-spec §2 /sendRelative/address), paid accounts only: the account's
 * lists with their alias and member count, found by name or alias; created and changed in a
 * dialog, deleted after a confirmation that says how many addresses go with the list. A list's
 * members are managed on address/addressEdit. With no list yet, the empty state leads to creating
 * one; a free account is told where to upgrade.
 */
export default function AddressListsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [name, setName] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const [editing, setEditing] = useState<AddressListView | 'new' | null>(null);
  const query = { name: name || undefined, pageNum, pageSize: PAGE_SIZE };
  const lists = useQuery({
    queryKey: ['addressLists', query],
    queryFn: () => fetchAddressLists(query),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queries.invalidateQueries({ queryKey: ['addressLists'] });
  const remove = useMutation({ mutationFn: deleteAddressList, onSettled: refresh });
  const open = (list: AddressListView) => navigate(`${ADDRESS_EDIT_PATH}?id=${list.id}`);

  if (lists.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const paid = lists.data?.paid !== false;
  const add = paid && (
    <Can code={SEND} level="full">
      <Button type="primary" className="address-list-add" onClick={() => setEditing('new')}>
        {t('addressLists.add')}
      </Button>
    </Can>
  );
  const empty = name ? (
    <Empty description={t('addressLists.emptyFiltered')} />
  ) : (
    <Empty description={t('addressLists.empty')} className="address-lists-empty">
      {add}
    </Empty>
  );

  return (
    <Card className="address-lists-page">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('addressLists.title')}
        </Typography.Title>
        {add}
      </Flex>
      <Typography.Paragraph type="secondary">{t('addressLists.intro')}</Typography.Paragraph>
      {!paid ? (
        <Alert
          type="info"
          showIcon
          className="address-lists-paid-only"
          title={t('addressLists.paidOnly')}
          action={<Link to="/accountSetting/financialMangement/charge">{t('addressLists.upgrade')}</Link>}
        />
      ) : (
        <>
          <Input.Search
            allowClear
            placeholder={t('addressLists.search')}
            className="address-lists-search"
            style={{ maxWidth: 320, marginBottom: 16 }}
            onSearch={(value) => {
              setName(value.trim());
              setPageNum(1);
            }}
          />
          <Table<AddressListView>
            rowKey="id"
            className="address-lists-table"
            loading={lists.isFetching}
            dataSource={lists.data?.list ?? []}
            scroll={{ x: true }}
            onRow={(row) => ({ 'data-list-address': row.address }) as React.HTMLAttributes<HTMLElement>}
            pagination={{
              current: pageNum,
              pageSize: PAGE_SIZE,
              total: lists.data?.total ?? 0,
              onChange: setPageNum,
              showSizeChanger: false,
              hideOnSinglePage: true,
            }}
            locale={{ emptyText: empty }}
            columns={[
              {
                title: t('addressLists.name'),
                render: (_, row) => (
                  <Space>
                    <Typography.Link strong className="address-list-open" onClick={() => open(row)}>
                      {row.name}
                    </Typography.Link>
                    {row.importing && <Tag color="processing">{t('addressLists.importing')}</Tag>}
                  </Space>
                ),
              },
              {
                title: t('addressLists.address'),
                render: (_, row) => <span className="nowrap">{row.address}</span>,
              },
              {
                title: t('addressLists.description'),
                render: (_, row) => (
                  <Typography.Text type="secondary">{row.description || '—'}</Typography.Text>
                ),
              },
              {
                title: t('addressLists.memberCount'),
                render: (_, row) => (
                  <span className="address-list-count">{row.memberCount.toLocaleString()}</span>
                ),
              },
              {
                title: t('addressLists.updatedAt'),
                render: (_, row) => <span className="nowrap">{formatDateTime(row.updatedAt)}</span>,
              },
              {
                title: t('addressLists.actions'),
                render: (_, row) => (
                  <Space size={0}>
                    <Button type="link" className="address-list-members" onClick={() => open(row)}>
                      {t('addressLists.members')}
                    </Button>
                    <Can code={SEND} level="full">
                      <Button type="link" className="address-list-edit" onClick={() => setEditing(row)}>
                        {t('addressLists.edit')}
                      </Button>
                      <Popconfirm
                        title={t('addressLists.deleteConfirm', { name: row.name, count: row.memberCount })}
                        okText={t('addressLists.delete')}
                        cancelText={t('addressLists.cancel')}
                        okButtonProps={{ danger: true, className: 'address-list-delete-ok' }}
                        onConfirm={() => remove.mutateAsync(row.id)}
                      >
                        <Button type="link" danger className="address-list-delete" disabled={row.importing}>
                          {t('addressLists.delete')}
                        </Button>
                      </Popconfirm>
                    </Can>
                  </Space>
                ),
              },
            ]}
          />
        </>
      )}
      <AddressListFormModal
        list={editing}
        domain={lists.data?.domain ?? ''}
        onClose={() => setEditing(null)}
        onSaved={async (saved) => {
          const created = editing === 'new';
          setEditing(null);
          await refresh();
          if (created) open(saved);
        }}
      />
    </Card>
  );
}
