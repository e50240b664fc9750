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
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import {
  CONTACT_IMPORTS,
  deleteContactMember,
  downloadContacts,
  fetchContactList,
  fetchContactMembers,
  type SmsContactMemberView,
} from '../../api/sms-contacts.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDateTime } from '../../components/format-time.ts';
import { ListImportModal } from '../../components/list-import/ListImportModal.tsx';
import { VerifyIdentityModal } from '../../components/VerifyIdentityModal.tsx';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { HttpError } from '../../infra/http/http-errors.ts';
import { ERROR_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';
import { ContactMemberFormModal } from './contacts/ContactMemberFormModal.tsx';

const SEND = PERMISSIONS.SMS_SEND;
const PAGE_SIZE = 20;
const LISTS_PATH = '/s_sendRelative/contact';

/**
 * The numbers of one contact list (console-spec §2 /s_sendRelative/contact/contactEdit?id=):
 * found by number or name, added and edited in a dialog, deleted after a confirmation; imported
 * from a file with a progress bar and the counts of what was taken (and the error report), and
 * exported as CSV. While an import runs the list takes no other change, and says so.
 */
export default function SmsContactEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [params] = useSearchParams();
  const listId = Number(params.get('id'));
  const [search, setSearch] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const [editing, setEditing] = useState<SmsContactMemberView | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const [verifying, setVerifying] = useState(false);

  const list = useQuery({
    queryKey: ['smsContactList', listId],
    queryFn: () => fetchContactList(listId),
    enabled: listId > 0,
  });
  const query = { listId, query: search || undefined, pageNum, pageSize: PAGE_SIZE };
  const members = useQuery({
    queryKey: ['smsContactMembers', query],
    queryFn: () => fetchContactMembers(query),
    enabled: listId > 0,
    placeholderData: keepPreviousData,
  });
  const refresh = useCallback(async () => {
    await Promise.all([
      queries.invalidateQueries({ queryKey: ['smsContactList', listId] }),
      queries.invalidateQueries({ queryKey: ['smsContactMembers'] }),
      queries.invalidateQueries({ queryKey: ['smsContactLists'] }),
    ]);
  }, [queries, listId]);
  const remove = useMutation({ mutationFn: deleteContactMember, onSettled: refresh });

  const exportList = async () => {
    try {
      await downloadContacts(listId);
    } catch (error) {
      if (error instanceof HttpError && error.code === 'VERIFY_DOWNLOAD_REQUIRED') setVerifying(true);
      else
        httpEffects().toast(
          'error',
          error instanceof Error ? error.message : String(error),
          ERROR_TOAST_SECONDS,
        );
    }
  };

  if (!(listId > 0) || list.isError) {
    return (
      <Result
        status="warning"
        title={t('common.loadFailed')}
        extra={<Button onClick={() => navigate(LISTS_PATH)}>{t('smsContacts.back')}</Button>}
      />
    );
  }
  const busy = list.data?.importing === true;
  const empty = search ? (
    <Empty description={t('smsContacts.membersEmptyFiltered')} />
  ) : (
    <Empty description={t('smsContacts.membersEmpty')} className="contact-members-empty" />
  );

  return (
    <Card className="sms-contact-edit-page" loading={list.isPending}>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
        <Space direction="vertical" size={0}>
          <Typography.Link onClick={() => navigate(LISTS_PATH)}>{t('smsContacts.back')}</Typography.Link>
          <Typography.Title level={4} style={{ margin: 0 }} className="contact-list-title">
            {t('smsContacts.membersTitle', { name: list.data?.name ?? '' })}
          </Typography.Title>
          <Typography.Text type="secondary" className="contact-list-summary">
            {t('smsContacts.listSummary', { count: list.data?.memberCount ?? 0 })}
            {busy && (
              <Tag color="processing" style={{ marginLeft: 8 }}>
                {t('smsContacts.importing')}
              </Tag>
            )}
          </Typography.Text>
        </Space>
        <Space wrap>
          <Can code={SEND} level="full">
            <Button
              type="primary"
              className="contact-member-add"
              disabled={busy}
              onClick={() => setEditing('new')}
            >
              {t('smsContacts.addMember')}
            </Button>
            <Button className="contact-import-open" onClick={() => setImporting(true)}>
              {t('smsContacts.import')}
            </Button>
            <Button className="contact-export" disabled={busy} onClick={exportList}>
              {t('smsContacts.export')}
            </Button>
          </Can>
        </Space>
      </Flex>
      {busy && <Alert type="info" showIcon message={t('smsContacts.busy')} style={{ marginBottom: 16 }} />}
      <Input.Search
        allowClear
        placeholder={t('smsContacts.searchMembers')}
        className="contact-members-search"
        style={{ maxWidth: 320, marginBottom: 16 }}
        onSearch={(value) => {
          setSearch(value.trim());
          setPageNum(1);
        }}
      />
      <Table<SmsContactMemberView>
        rowKey="id"
        className="contact-members-table"
        loading={members.isFetching}
        dataSource={members.data?.list ?? []}
        scroll={{ x: true }}
        onRow={(row) => ({ 'data-phone': row.phone }) as React.HTMLAttributes<HTMLElement>}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: members.data?.total ?? 0,
          onChange: setPageNum,
          showSizeChanger: false,
          hideOnSinglePage: true,
        }}
        locale={{ emptyText: empty }}
        columns={[
          { title: t('smsContacts.phone'), render: (_, row) => <span className="nowrap">{row.phone}</span> },
          { title: t('smsContacts.memberName'), render: (_, row) => row.name || '—' },
          {
            title: t('smsContacts.vars'),
            render: (_, row) => (
              <Flex wrap gap={4}>
                {Object.entries(row.vars).map(([name, value]) => (
                  <Tag key={name}>{`${name}: ${value}`}</Tag>
                ))}
              </Flex>
            ),
          },
          {
            title: t('smsContacts.createdAt'),
            render: (_, row) => <span className="nowrap">{formatDateTime(row.createdAt)}</span>,
          },
          {
            title: t('smsContacts.actions'),
            render: (_, row) => (
              <Can code={SEND} level="full" fallback="—">
                <Space size={0}>
                  <Button
                    type="link"
                    className="contact-member-edit"
                    disabled={busy}
                    onClick={() => setEditing(row)}
                  >
                    {t('smsContacts.edit')}
                  </Button>
                  <Popconfirm
                    title={t('smsContacts.memberDeleteConfirm', { phone: row.phone })}
                    okText={t('smsContacts.delete')}
                    cancelText={t('smsContacts.cancel')}
                    okButtonProps={{ danger: true, className: 'contact-member-delete-ok' }}
                    onConfirm={() => remove.mutateAsync(row.id)}
                  >
                    <Button type="link" danger className="contact-member-delete" disabled={busy}>
                      {t('smsContacts.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              </Can>
            ),
          },
        ]}
      />
      <ContactMemberFormModal
        listId={listId}
        member={editing}
        onClose={() => setEditing(null)}
        onSaved={async () => {
          setEditing(null);
          await refresh();
        }}
      />
      <ListImportModal
        api={CONTACT_IMPORTS}
        title={t('smsContacts.importTitle')}
        hint={t('smsContacts.importHint')}
        listId={listId}
        open={importing}
        onClose={() => {
          setImporting(false);
          void refresh();
        }}
        onEnded={refresh}
      />
      <VerifyIdentityModal
        kind="download"
        open={verifying}
        onCancel={() => setVerifying(false)}
        onVerified={() => {
          setVerifying(false);
          void exportList();
        }}
      />
    </Card>
  );
}
