import { PERMISSIONS } from '@herald/shared/permissions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Input, Popconfirm, Result, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteLabel, fetchLabels, type Label } from '../../api/labels.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDateTime } from '../../components/format-time.ts';
import { LabelFormModal } from './labels/LabelFormModal.tsx';

const when = (time: number) => formatDateTime(time);

/** Labels (console-spec §2 /sendSetting/tags): add, rename, delete, search by name. */
export default function TagsPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<Label | 'new' | null>(null);
  const labels = useQuery({ queryKey: ['labels', 'list', query], queryFn: () => fetchLabels(query) });
  const refresh = () => queries.invalidateQueries({ queryKey: ['labels'] });
  const remove = useMutation({ mutationFn: deleteLabel, onSettled: refresh });

  if (labels.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const add = (
    <Button type="primary" className="label-add" onClick={() => setEditing('new')}>
      {t('labels.add')}
    </Button>
  );

  return (
    <Card className="tags-page">
      <Flex justify="space-between" align="center" gap="middle" style={{ marginBottom: 16 }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('labels.title')}
        </Typography.Title>
        <Flex gap="small">
          <Input.Search
            allowClear
            className="label-search"
            placeholder={t('labels.search')}
            onSearch={(value) => setQuery(value.trim())}
            style={{ width: 240 }}
          />
          <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
            {add}
          </Can>
        </Flex>
      </Flex>
      <Table<Label>
        rowKey="id"
        className="labels-table"
        loading={labels.isPending}
        dataSource={labels.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description={t('labels.empty')} /> }}
        columns={[
          { title: t('labels.id'), dataIndex: 'id', width: 100 },
          { title: t('labels.name'), dataIndex: 'name' },
          { title: t('labels.createdAt'), render: (_, l) => when(l.createdAt) },
          { title: t('labels.updatedAt'), render: (_, l) => when(l.updatedAt) },
          {
            title: t('labels.actions'),
            render: (_, l) => (
              <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full" fallback="—">
                <Space size={0}>
                  <Button type="link" className="label-edit" onClick={() => setEditing(l)}>
                    {t('labels.edit')}
                  </Button>
                  <Popconfirm
                    title={t('labels.deleteConfirm', { name: l.name })}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => remove.mutateAsync(l.id)}
                  >
                    <Button type="link" danger className="label-delete">
                      {t('labels.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              </Can>
            ),
          },
        ]}
      />
      <LabelFormModal
        label={editing}
        onClose={() => setEditing(null)}
        onSaved={async () => {
          setEditing(null);
          await refresh();
        }}
      />
    </Card>
  );
}
