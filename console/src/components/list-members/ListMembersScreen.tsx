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
import { httpEffects } from '../../infra/http/http-effects.ts';
import { HttpError } from '../../infra/http/http-errors.ts';
import { ERROR_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';
import { Can } from '../Can.tsx';
import { formatDateTime } from '../format-time.ts';
import { ListImportModal } from '../list-import/ListImportModal.tsx';
import { VerifyIdentityModal } from '../VerifyIdentityModal.tsx';
import { ListMemberFormModal } from './ListMemberFormModal.tsx';
import type { ListBase, ListScreenKind, MemberBase } from './list-kind.ts';

const PAGE_SIZE = 20;

/** A list's fields as interpolation values (an address list's summary shows its alias). */
const fieldsOf = (list: ListBase) => ({ ...list }) as Record<string, unknown>;

/**
 * The members of one list (`?id=`): found by key or name, added and edited in a dialog, deleted
 * after a confirmation; imported from a file with a progress bar and the counts of what was taken
 * (and the error report), and exported as CSV. While an import runs the list takes no other
 * change, and says so. The list's summary line is its area's `listSummary`, given the list's fields.
 */
export function ListMembersScreen<
  L extends ListBase,
  K extends string,
  M extends MemberBase & Record<K, string>,
>({ kind }: { kind: ListScreenKind<L, K, M> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [params] = useSearchParams();
  const listId = Number(params.get('id'));
  const [search, setSearch] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const [editing, setEditing] = useState<M | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const [verifying, setVerifying] = useState(false);
  const { area, api, queryKeys } = kind;

  const list = useQuery({
    queryKey: [queryKeys.list, listId],
    queryFn: () => api.list(listId),
    enabled: listId > 0,
  });
  const query = { listId, query: search || undefined, pageNum, pageSize: PAGE_SIZE };
  const members = useQuery({
    queryKey: [queryKeys.members, query],
    queryFn: () => api.members(query),
    enabled: listId > 0,
    placeholderData: keepPreviousData,
  });
  const refresh = useCallback(async () => {
    await Promise.all([
      queries.invalidateQueries({ queryKey: [queryKeys.list, listId] }),
      queries.invalidateQueries({ queryKey: [queryKeys.members] }),
      queries.invalidateQueries({ queryKey: [queryKeys.lists] }),
    ]);
  }, [queries, queryKeys, listId]);
  const remove = useMutation({ mutationFn: api.removeMember, onSettled: refresh });

  const exportList = async () => {
    try {
      await api.exportList(listId);
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

  const back = (
    <Typography.Link onClick={() => navigate(kind.listsPath)}>{t(`${area}.back`)}</Typography.Link>
  );
  if (!(listId > 0) || list.isError) {
    return <Result status="warning" title={t('common.loadFailed')} extra={back} />;
  }
  const busy = list.data?.importing === true;
  const empty = search ? (
    <Empty description={t(`${area}.membersEmptyFiltered`)} />
  ) : (
    <Empty description={t(`${area}.membersEmpty`)} className="list-members-empty" />
  );

  return (
    <Card className="list-members-page" loading={list.isPending}>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
        <Space direction="vertical" size={0}>
          {back}
          <Typography.Title level={4} style={{ margin: 0 }} className="list-title">
            {t(`${area}.membersTitle`, { name: list.data?.name ?? '' })}
          </Typography.Title>
          <Typography.Text type="secondary" className="list-summary">
            {list.data && t(`${area}.listSummary`, { ...fieldsOf(list.data), count: list.data.memberCount })}
            {busy && (
              <Tag color="processing" style={{ marginLeft: 8 }}>
                {t(`${area}.importing`)}
              </Tag>
            )}
          </Typography.Text>
        </Space>
        <Space wrap>
          <Can code={kind.permission} level="full">
            <Button
              type="primary"
              className="list-member-add"
              disabled={busy}
              onClick={() => setEditing('new')}
            >
              {t(`${area}.addMember`)}
            </Button>
            <Button className="list-import-open" onClick={() => setImporting(true)}>
              {t(`${area}.import`)}
            </Button>
            <Button className="list-export" disabled={busy} onClick={exportList}>
              {t(`${area}.export`)}
            </Button>
          </Can>
        </Space>
      </Flex>
      {busy && <Alert type="info" showIcon message={t(`${area}.busy`)} style={{ marginBottom: 16 }} />}
      <Input.Search
        allowClear
        placeholder={t(`${area}.searchMembers`)}
        className="list-members-search"
        style={{ maxWidth: 320, marginBottom: 16 }}
        onSearch={(value) => {
          setSearch(value.trim());
          setPageNum(1);
        }}
      />
      <Table<M>
        rowKey="id"
        className="list-members-table"
        loading={members.isFetching}
        dataSource={members.data?.list ?? []}
        scroll={{ x: true }}
        onRow={(row) => ({ 'data-member': row[kind.memberKey] }) as React.HTMLAttributes<HTMLElement>}
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
            title: t(`${area}.memberKey`),
            render: (_, row) => <span className="nowrap">{row[kind.memberKey]}</span>,
          },
          { title: t(`${area}.memberName`), render: (_, row) => row.name || '—' },
          {
            title: t(`${area}.vars`),
            render: (_, row) => (
              <Flex wrap gap={4}>
                {Object.entries(row.vars).map(([name, value]) => (
                  <Tag key={name}>{`${name}: ${value}`}</Tag>
                ))}
              </Flex>
            ),
          },
          {
            title: t(`${area}.createdAt`),
            render: (_, row) => <span className="nowrap">{formatDateTime(row.createdAt)}</span>,
          },
          {
            title: t(`${area}.actions`),
            render: (_, row) => (
              <Can code={kind.permission} level="full" fallback="—">
                <Space size={0}>
                  <Button
                    type="link"
                    className="list-member-edit"
                    disabled={busy}
                    onClick={() => setEditing(row)}
                  >
                    {t(`${area}.edit`)}
                  </Button>
                  <Popconfirm
                    title={t(`${area}.memberDeleteConfirm`, { member: row[kind.memberKey] })}
                    okText={t(`${area}.delete`)}
                    cancelText={t(`${area}.cancel`)}
                    okButtonProps={{ danger: true, className: 'list-member-delete-ok' }}
                    onConfirm={() => remove.mutateAsync(row.id)}
                  >
                    <Button type="link" danger className="list-member-delete" disabled={busy}>
                      {t(`${area}.delete`)}
                    </Button>
                  </Popconfirm>
                </Space>
              </Can>
            ),
          },
        ]}
      />
      <ListMemberFormModal
        kind={kind}
        listId={listId}
        member={editing}
        onClose={() => setEditing(null)}
        onSaved={async () => {
          setEditing(null);
          await refresh();
        }}
      />
      <ListImportModal
        api={api.imports}
        title={t(`${area}.importTitle`)}
        hint={t(`${area}.importHint`)}
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
