import { PERMISSIONS } from '@herald/shared/permissions';
import type { LabelView } from '@herald/shared/schemas/label.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Input, Popconfirm, Result, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LabelsApi } from '../../../api/labels.api.ts';
import { Can } from '../../../components/Can.tsx';
import { formatDateTime } from '../../../components/format-time.ts';
import { LabelFormModal } from './LabelFormModal.tsx';

const when = (time: number) => formatDateTime(time);

/** What differs between the email labels screen and the SMS one: code, texts, root class. */
const VIEWS = {
  email: {
    access: PERMISSIONS.EMAIL_SETTINGS,
    className: 'tags-page',
    title: 'labels.title',
    intro: null,
    empty: 'labels.empty',
    deleteConfirm: 'labels.deleteConfirm',
  },
  sms: {
    access: PERMISSIONS.SMS_SETTINGS,
    className: 'sms-labels-page',
    title: 'labels.smsTitle',
    intro: 'labels.smsIntro',
    empty: 'labels.smsEmpty',
    deleteConfirm: 'labels.smsDeleteConfirm',
  },
} as const;

/**
 * One channel's labels (email `/sendSetting/tags`, SMS `/s_sendSetting/label`): search by name,
 * add, rename and delete after a confirmation; with none yet, the empty list offers the add.
 */
export function LabelsCard({ api }: { api: LabelsApi }) {
  const { t } = useTranslation();
  const view = VIEWS[api.channel];
  const queries = useQueryClient();
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<LabelView | 'new' | null>(null);
  const labels = useQuery({ queryKey: [api.key, 'list', query], queryFn: () => api.list(query) });
  const refresh = () => queries.invalidateQueries({ queryKey: [api.key] });
  const remove = useMutation({ mutationFn: api.remove, onSettled: refresh });

  if (labels.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  // The empty list offers the add too, under its own class (the header's stays the one `.label-add`).
  const add = (className: string) => (
    <Can code={view.access} level="full">
      <Button type="primary" className={className} onClick={() => setEditing('new')}>
        {t('labels.add')}
      </Button>
    </Can>
  );
  const empty = query ? (
    <Empty description={t('labels.noMatch')} />
  ) : (
    <Empty description={t(view.empty)}>{add('label-add-first')}</Empty>
  );

  return (
    <Card className={view.className}>
      <Flex justify="space-between" align="center" gap="middle" style={{ marginBottom: 16 }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t(view.title)}
        </Typography.Title>
        <Flex gap="small">
          <Input.Search
            allowClear
            className="label-search"
            placeholder={t('labels.search')}
            onSearch={(value) => setQuery(value.trim())}
            style={{ width: 240 }}
          />
          {add('label-add')}
        </Flex>
      </Flex>
      {view.intro && <Typography.Paragraph type="secondary">{t(view.intro)}</Typography.Paragraph>}
      <Table<LabelView>
        rowKey="id"
        className="labels-table"
        loading={labels.isPending}
        dataSource={labels.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: empty }}
        columns={[
          { title: t('labels.id'), dataIndex: 'id', width: 100 },
          { title: t('labels.name'), dataIndex: 'name' },
          { title: t('labels.createdAt'), render: (_, l) => when(l.createdAt) },
          { title: t('labels.updatedAt'), render: (_, l) => when(l.updatedAt) },
          {
            title: t('labels.actions'),
            render: (_, l) => (
              <Can code={view.access} level="full" fallback="—">
                <Space size={0}>
                  <Button type="link" className="label-edit" onClick={() => setEditing(l)}>
                    {t('labels.edit')}
                  </Button>
                  <Popconfirm
                    title={t(view.deleteConfirm, { name: l.name })}
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
        api={api}
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
