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
  ADDRESS_IMPORTS,
  type AddressMemberView,
  deleteAddressMember,
  downloadAddressList,
  fetchAddressList,
  fetchAddressMembers,
} from '../../api/address-lists.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDateTime } from '../../components/format-time.ts';
import { ListImportModal } from '../../components/list-import/ListImportModal.tsx';
import { VerifyIdentityModal } from '../../components/VerifyIdentityModal.tsx';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { HttpError } from '../../infra/http/http-errors.ts';
import { ERROR_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';
import { AddressMemberFormModal } from './address-lists/AddressMemberFormModal.tsx';

const SEND = PERMISSIONS.EMAIL_SEND;
const PAGE_SIZE = 20;
const LISTS_PATH = '/sendRelative/address';

/**
 * The addresses of one address list (console-spec §2 /sendRelative/address/addressEdit?id=):
 * found by address or name, added and edited in a dialog, deleted after a confirmation; imported
 * from a file with a progress bar and the counts of what was taken (and the error report), and
 * exported as CSV. While an import runs the list takes no other change, and says so.
 */
export default function AddressListEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [params] = useSearchParams();
  const listId = Number(params.get('id'));
  const [search, setSearch] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const [editing, setEditing] = useState<AddressMemberView | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const [verifying, setVerifying] = useState(false);

  const list = useQuery({
    queryKey: ['addressList', listId],
    queryFn: () => fetchAddressList(listId),
    enabled: listId > 0,
  });
  const query = { listId, query: search || undefined, pageNum, pageSize: PAGE_SIZE };
  const members = useQuery({
    queryKey: ['addressMembers', query],
    queryFn: () => fetchAddressMembers(query),
    enabled: listId > 0,
    placeholderData: keepPreviousData,
  });
  const refresh = useCallback(async () => {
    await Promise.all([
      queries.invalidateQueries({ queryKey: ['addressList', listId] }),
      queries.invalidateQueries({ queryKey: ['addressMembers'] }),
      queries.invalidateQueries({ queryKey: ['addressLists'] }),
    ]);
  }, [queries, listId]);
  const remove = useMutation({ mutationFn: deleteAddressMember, onSettled: refresh });

  const exportList = async () => {
    try {
      await downloadAddressList(listId);
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
        extra={<Button onClick={() => navigate(LISTS_PATH)}>{t('addressLists.back')}</Button>}
      />
    );
  }
  const busy = list.data?.importing === true;
  const empty = search ? (
    <Empty description={t('addressLists.membersEmptyFiltered')} />
  ) : (
    <Empty description={t('addressLists.membersEmpty')} className="address-members-empty" />
  );

  return (
    <Card className="address-list-edit-page" loading={list.isPending}>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
        <Space direction="vertical" size={0}>
          <Typography.Link onClick={() => navigate(LISTS_PATH)}>{t('addressLists.back')}</Typography.Link>
          <Typography.Title level={4} style={{ margin: 0 }} className="address-list-title">
            {t('addressLists.membersTitle', { name: list.data?.name ?? '' })}
          </Typography.Title>
          <Typography.Text type="secondary" className="address-list-summary">
            {t('addressLists.listSummary', {
              address: list.data?.address ?? '',
              count: list.data?.memberCount ?? 0,
            })}
            {busy && (
              <Tag color="processing" style={{ marginLeft: 8 }}>
                {t('addressLists.importing')}
              </Tag>
            )}
          </Typography.Text>
        </Space>
        <Space wrap>
          <Can code={SEND} level="full">
            <Button
              type="primary"
              className="address-member-add"
              disabled={busy}
              onClick={() => setEditing('new')}
            >
              {t('addressLists.addMember')}
            </Button>
            <Button className="address-import-open" onClick={() => setImporting(true)}>
              {t('addressLists.import')}
            </Button>
            <Button className="address-export" disabled={busy} onClick={exportList}>
              {t('addressLists.export')}
            </Button>
          </Can>
        </Space>
      </Flex>
      {busy && <Alert type="info" showIcon message={t('addressLists.busy')} style={{ marginBottom: 16 }} />}
      <Input.Search
        allowClear
        placeholder={t('addressLists.searchMembers')}
        className="address-members-search"
        style={{ maxWidth: 320, marginBottom: 16 }}
        onSearch={(value) => {
          setSearch(value.trim());
          setPageNum(1);
        }}
      />
      <Table<AddressMemberView>
        rowKey="id"
        className="address-members-table"
        loading={members.isFetching}
        dataSource={members.data?.list ?? []}
        scroll={{ x: true }}
        onRow={(row) => ({ 'data-address': row.address }) as React.HTMLAttributes<HTMLElement>}
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
          {
            title: t('addressLists.memberAddress'),
            render: (_, row) => <span className="nowrap">{row.address}</span>,
          },
          { title: t('addressLists.memberName'), render: (_, row) => row.name || '—' },
          {
            title: t('addressLists.vars'),
            render: (_, row) => (
              <Flex wrap gap={4}>
                {Object.entries(row.vars).map(([name, value]) => (
                  <Tag key={name}>{`${name}: ${value}`}</Tag>
                ))}
              </Flex>
            ),
          },
          {
            title: t('addressLists.createdAt'),
            render: (_, row) => <span className="nowrap">{formatDateTime(row.createdAt)}</span>,
          },
          {
            title: t('addressLists.actions'),
            render: (_, row) => (
              <Can code={SEND} level="full" fallback="—">
                <Space size={0}>
                  <Button
                    type="link"
                    className="address-member-edit"
                    disabled={busy}
                    onClick={() => setEditing(row)}
                  >
                    {t('addressLists.edit')}
                  </Button>
                  <Popconfirm
                    title={t('addressLists.memberDeleteConfirm', { address: row.address })}
                    okText={t('addressLists.delete')}
                    cancelText={t('addressLists.cancel')}
                    okButtonProps={{ danger: true, className: 'address-member-delete-ok' }}
                    onConfirm={() => remove.mutateAsync(row.id)}
                  >
                    <Button type="link" danger className="address-member-delete" disabled={busy}>
                      {t('addressLists.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              </Can>
            ),
          },
        ]}
      />
      <AddressMemberFormModal
        listId={listId}
        member={editing}
        onClose={() => setEditing(null)}
        onSaved={async () => {
          setEditing(null);
          await refresh();
        }}
      />
      <ListImportModal
        api={ADDRESS_IMPORTS}
        title={t('addressLists.importTitle')}
        hint={t('addressLists.importHint')}
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
