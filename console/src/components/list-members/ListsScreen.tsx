import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Input, Popconfirm, Result, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Can } from '../Can.tsx';
import { formatDateTime } from '../format-time.ts';
import type { ListBase, ListScreenKind, ListsPageBase, MemberBase } from './list-kind.ts';

const PAGE_SIZE = 20;

/** What the lists screen hands the kind's list dialog. */
export interface ListFormProps<L, P> {
  list: L | 'new' | null;
  /** The page of lists on screen (what the dialog may need of it, such as the alias domain). */
  page: P | undefined;
  onClose: () => void;
  onSaved: (saved: L) => unknown;
}

/**
 * The account's lists of one kind with their member counts, found by name; created and changed
 * in the kind's dialog, deleted after a confirmation that says how many members go with the list.
 * A list's members are managed on its members screen, where a new list opens. With no list yet,
 * the empty state leads to creating one; a `notice` for the page (a free account's) stands in for
 * the table and the add button.
 */
export function ListsScreen<
  L extends ListBase,
  K extends string,
  M extends MemberBase & Record<K, string>,
  P extends ListsPageBase<L>,
>({
  kind,
  fetchLists,
  columns = [],
  notice,
  form,
}: {
  kind: ListScreenKind<L, K, M>;
  fetchLists: (query: { name?: string | undefined; pageNum: number; pageSize: number }) => Promise<P>;
  /** The kind's own columns, after the name. */
  columns?: ColumnsType<L>;
  notice?: (page: P) => ReactNode;
  form: (props: ListFormProps<L, P>) => ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [name, setName] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const [editing, setEditing] = useState<L | 'new' | null>(null);
  const { area, queryKeys } = kind;
  const query = { name: name || undefined, pageNum, pageSize: PAGE_SIZE };
  const lists = useQuery({
    queryKey: [queryKeys.lists, query],
    queryFn: () => fetchLists(query),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queries.invalidateQueries({ queryKey: [queryKeys.lists] });
  const remove = useMutation({ mutationFn: kind.api.removeList, onSettled: refresh });
  const open = (list: L) => navigate(`${kind.membersPath}?id=${list.id}`);

  if (lists.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const shown = lists.data && notice?.(lists.data);
  const add = !shown && (
    <Can code={kind.permission} level="full">
      <Button type="primary" className="list-add" onClick={() => setEditing('new')}>
        {t(`${area}.add`)}
      </Button>
    </Can>
  );
  const empty = name ? (
    <Empty description={t(`${area}.emptyFiltered`)} />
  ) : (
    <Empty description={t(`${area}.empty`)} className="lists-empty">
      {add}
    </Empty>
  );

  return (
    <Card className="lists-page">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t(`${area}.title`)}
        </Typography.Title>
        {add}
      </Flex>
      <Typography.Paragraph type="secondary">{t(`${area}.intro`)}</Typography.Paragraph>
      {shown || (
        <>
          <Input.Search
            allowClear
            placeholder={t(`${area}.search`)}
            className="lists-search"
            style={{ maxWidth: 320, marginBottom: 16 }}
            onSearch={(value) => {
              setName(value.trim());
              setPageNum(1);
            }}
          />
          <Table<L>
            rowKey="id"
            className="lists-table"
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
                title: t(`${area}.name`),
                render: (_, row) => (
                  <Space>
                    <Typography.Link strong className="list-open" onClick={() => open(row)}>
                      {row.name}
                    </Typography.Link>
                    {row.importing && <Tag color="processing">{t(`${area}.importing`)}</Tag>}
                  </Space>
                ),
              },
              ...columns,
              {
                title: t(`${area}.description`),
                render: (_, row) => (
                  <Typography.Text type="secondary">{row.description || '—'}</Typography.Text>
                ),
              },
              {
                title: t(`${area}.memberCount`),
                render: (_, row) => <span className="list-count">{row.memberCount.toLocaleString()}</span>,
              },
              {
                title: t(`${area}.updatedAt`),
                render: (_, row) => <span className="nowrap">{formatDateTime(row.updatedAt)}</span>,
              },
              {
                title: t(`${area}.actions`),
                render: (_, row) => (
                  <Space size={0}>
                    <Button type="link" className="list-members" onClick={() => open(row)}>
                      {t(`${area}.members`)}
                    </Button>
                    <Can code={kind.permission} level="full">
                      <Button type="link" className="list-edit" onClick={() => setEditing(row)}>
                        {t(`${area}.editList`)}
                      </Button>
                      <Popconfirm
                        title={t(`${area}.deleteConfirm`, { name: row.name, count: row.memberCount })}
                        okText={t(`${area}.delete`)}
                        cancelText={t(`${area}.cancel`)}
                        okButtonProps={{ danger: true, className: 'list-delete-ok' }}
                        onConfirm={() => remove.mutateAsync(row.id)}
                      >
                        <Button type="link" danger className="list-delete" disabled={row.importing}>
                          {t(`${area}.delete`)}
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
      {form({
        list: editing,
        page: lists.data,
        onClose: () => setEditing(null),
        onSaved: async (saved) => {
          const created = editing === 'new';
          setEditing(null);
          await refresh();
          if (created) open(saved);
        },
      })}
    </Card>
  );
}
