import { PERMISSIONS } from '@herald/shared/permissions';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Flex, Input, Popconfirm, Result, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  deleteEntry,
  exportEntries,
  fetchEntries,
  type ListPath,
  type SuppressionEntryView,
} from '../../../api/suppression.api.ts';
import { Can } from '../../../components/Can.tsx';
import { formatDateTime } from '../../../components/format-time.ts';
import { AddAddressesModal } from './AddAddressesModal.tsx';
import { ImportAddressesModal } from './ImportAddressesModal.tsx';

const when = (ms: number | null) => (ms ? formatDateTime(ms) : null);
const PAGE_SIZE = 20;

/**
 * One suppression list: search, page, export (a download: hidden from view-only users), and
 * where the list allows it add, import and delete with a confirmation.
 */
export function SuppressionListTable({ path }: { path: ListPath }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [email, setEmail] = useState('');
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<'add' | 'import' | null>(null);
  const addable = path === 'unsubscribes' || path === 'block' ? path : null;
  const deletable = path !== 'complaint';
  const filter = { ...(email ? { email } : {}), page, pageSize: PAGE_SIZE };
  const entries = useQuery({
    queryKey: ['suppression', path, filter],
    queryFn: () => fetchEntries(path, filter),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queries.invalidateQueries({ queryKey: ['suppression', path] });
  const remove = useMutation({ mutationFn: (id: number) => deleteEntry(path, id), onSettled: refresh });
  const R = PERMISSIONS.EMAIL_RESPONSE;

  if (entries.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const reason = (r: SuppressionEntryView) =>
    t(`suppression.reasons.${r.reason}` as 'suppression.reasons.spam', { defaultValue: r.reason });

  return (
    <div className={`suppression-list suppression-list-${path}`}>
      <Flex justify="space-between" gap="middle" style={{ marginBottom: 16 }} wrap>
        <Input.Search
          allowClear
          className="suppression-search"
          placeholder={t('suppression.search')}
          onSearch={(value) => {
            setEmail(value.trim());
            setPage(1);
          }}
          style={{ width: 260 }}
        />
        <Can code={R} level="full">
          <Flex gap="small">
            {addable && (
              <>
                <Button type="primary" className="suppression-add" onClick={() => setDialog('add')}>
                  {t('suppression.add')}
                </Button>
                <Button className="suppression-import" onClick={() => setDialog('import')}>
                  {t('suppression.import')}
                </Button>
              </>
            )}
            <Button
              className="suppression-export"
              onClick={() => exportEntries(path, email ? { email } : {})}
            >
              {t('suppression.export')}
            </Button>
          </Flex>
        </Can>
      </Flex>
      <Table<SuppressionEntryView>
        rowKey="id"
        className="suppression-table"
        loading={entries.isFetching}
        dataSource={entries.data?.data ?? []}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: entries.data?.total ?? 0,
          showSizeChanger: false,
          hideOnSinglePage: true,
          onChange: setPage,
        }}
        locale={{ emptyText: <Empty description={t('suppression.empty')} /> }}
        columns={[
          { title: t('suppression.address'), dataIndex: 'address' },
          { title: t('suppression.reason'), render: (_, r) => <Tag>{reason(r)}</Tag> },
          { title: t('suppression.detail'), render: (_, r) => r.detail ?? '—', ellipsis: true },
          ...(path === 'unsubscribes'
            ? [
                {
                  title: t('suppression.apiUser'),
                  render: (_: unknown, r: SuppressionEntryView) => r.apiUser ?? t('suppression.scopeAll'),
                },
                {
                  title: t('suppression.label'),
                  render: (_: unknown, r: SuppressionEntryView) => r.labelId ?? t('suppression.scopeAll'),
                },
              ]
            : []),
          {
            title: t('suppression.source'),
            render: (_, r) =>
              t(`suppression.sources.${r.source}` as 'suppression.sources.console', {
                defaultValue: r.source,
              }),
          },
          { title: t('suppression.createdAt'), render: (_, r) => when(r.createdAt) },
          {
            title: t('suppression.expiresAt'),
            render: (_, r) => when(r.expiresAt) ?? t('suppression.permanent'),
          },
          ...(deletable
            ? [
                {
                  title: t('suppression.actions'),
                  render: (_: unknown, r: SuppressionEntryView) => (
                    <Can code={R} level="full" fallback="—">
                      <Popconfirm
                        title={t('suppression.deleteConfirm', { address: r.address })}
                        okButtonProps={{ danger: true, className: 'suppression-delete-ok' }}
                        onConfirm={() => remove.mutateAsync(r.id)}
                      >
                        <Button type="link" danger className="suppression-delete">
                          {t('suppression.delete')}
                        </Button>
                      </Popconfirm>
                    </Can>
                  ),
                },
              ]
            : []),
        ]}
      />
      {addable && (
        <>
          <AddAddressesModal
            path={addable}
            open={dialog === 'add'}
            onClose={() => setDialog(null)}
            onSaved={async () => {
              setDialog(null);
              await refresh();
            }}
          />
          <ImportAddressesModal
            path={addable}
            open={dialog === 'import'}
            onClose={() => setDialog(null)}
            onSaved={async () => {
              setDialog(null);
              await refresh();
            }}
          />
        </>
      )}
    </div>
  );
}
