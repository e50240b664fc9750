import { PERMISSIONS } from '@herald/shared/permissions';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Input, Popconfirm, Result, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deleteContactList, fetchContactLists, type SmsContactListView } from '../../api/sms-contacts.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDateTime } from '../../components/format-time.ts';
import { ContactListFormModal } from './contacts/ContactListFormModal.tsx';

export const CONTACT_EDIT_PATH = '/s_sendRelative/contact/contactEdit';
const SEND = PERMISSIONS.SMS_SEND;
const PAGE_SIZE = 20;

/**
 * SMS contact lists (console-spec §2 /s_sendRelative/contact): the account's lists with their
 * member counts, found by name; created and renamed in a dialog, deleted after a confirmation that
 * says how many numbers go with the list. A list's numbers are managed on contact/contactEdit.
 * With no list yet, the empty state leads to creating one.
 */
export default function SmsContactsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [name, setName] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const [editing, setEditing] = useState<SmsContactListView | 'new' | null>(null);
  const query = { name: name || undefined, pageNum, pageSize: PAGE_SIZE };
  const lists = useQuery({
    queryKey: ['smsContactLists', query],
    queryFn: () => fetchContactLists(query),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queries.invalidateQueries({ queryKey: ['smsContactLists'] });
  const remove = useMutation({ mutationFn: deleteContactList, onSettled: refresh });
  const open = (list: SmsContactListView) => navigate(`${CONTACT_EDIT_PATH}?id=${list.id}`);

  if (lists.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const add = (
    <Can code={SEND} level="full">
      <Button type="primary" className="contact-list-add" onClick={() => setEditing('new')}>
        {t('smsContacts.add')}
      </Button>
    </Can>
  );
  const empty = name ? (
    <Empty description={t('smsContacts.emptyFiltered')} />
  ) : (
    <Empty description={t('smsContacts.empty')} className="contact-lists-empty">
      {add}
    </Empty>
  );

  return (
    <Card className="sms-contacts-page">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('smsContacts.title')}
        </Typography.Title>
        {add}
      </Flex>
      <Typography.Paragraph type="secondary">{t('smsContacts.intro')}</Typography.Paragraph>
      <Input.Search
        allowClear
        placeholder={t('smsContacts.search')}
        className="contact-lists-search"
        style={{ maxWidth: 320, marginBottom: 16 }}
        onSearch={(value) => {
          setName(value.trim());
          setPageNum(1);
        }}
      />
      <Table<SmsContactListView>
        rowKey="id"
        className="contact-lists-table"
        loading={lists.isFetching}
        dataSource={lists.data?.list ?? []}
        scroll={{ x: true }}
        onRow={(row) => ({ 'data-list-name': row.name }) as React.HTMLAttributes<HTMLElement>}
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
            title: t('smsContacts.name'),
            render: (_, row) => (
              <Space>
                <Typography.Link strong className="contact-list-open" onClick={() => open(row)}>
                  {row.name}
                </Typography.Link>
                {row.importing && <Tag color="processing">{t('smsContacts.importing')}</Tag>}
              </Space>
            ),
          },
          {
            title: t('smsContacts.description'),
            render: (_, row) => <Typography.Text type="secondary">{row.description || '—'}</Typography.Text>,
          },
          {
            title: t('smsContacts.memberCount'),
            render: (_, row) => (
              <span className="contact-list-count">{row.memberCount.toLocaleString()}</span>
            ),
          },
          {
            title: t('smsContacts.updatedAt'),
            render: (_, row) => <span className="nowrap">{formatDateTime(row.updatedAt)}</span>,
          },
          {
            title: t('smsContacts.actions'),
            render: (_, row) => (
              <Space size={0}>
                <Button type="link" className="contact-list-members" onClick={() => open(row)}>
                  {t('smsContacts.members')}
                </Button>
                <Can code={SEND} level="full">
                  <Button type="link" className="contact-list-rename" onClick={() => setEditing(row)}>
                    {t('smsContacts.rename')}
                  </Button>
                  <Popconfirm
                    title={t('smsContacts.deleteConfirm', { name: row.name, count: row.memberCount })}
                    okText={t('smsContacts.delete')}
                    cancelText={t('smsContacts.cancel')}
                    okButtonProps={{ danger: true, className: 'contact-list-delete-ok' }}
                    onConfirm={() => remove.mutateAsync(row.id)}
                  >
                    <Button type="link" danger className="contact-list-delete" disabled={row.importing}>
                      {t('smsContacts.delete')}
                    </Button>
                  </Popconfirm>
                </Can>
              </Space>
            ),
          },
        ]}
      />
      <ContactListFormModal
        list={editing}
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
