import { PERMISSIONS } from '@herald/shared/permissions';
import {
  TEMPLATE_MAX,
  TEMPLATE_STATUSES,
  TEMPLATE_TYPES,
  type TemplateStatus,
  type TemplateType,
} from '@herald/shared/schemas/template.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Empty,
  Flex,
  Input,
  Popconfirm,
  Result,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  cancelVerify,
  commitVerify,
  copyTemplate,
  deleteTemplate,
  deleteTemplates,
  fetchTemplates,
  type TemplateView,
} from '../../api/templates.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDateTime } from '../../components/format-time.ts';
import { TemplateStatusTag } from './TemplateStatusTag.tsx';
import { toastSuccess } from './template-toast.ts';

export const RICH_EDIT_PATH = '/sendRelative/template/templateOpt';
export const VISUAL_EDIT_PATH = '/sendRelative/template/shanTemplateOpt';
export const PREVIEW_PATH = '/sendRelative/template/preview';
const SEND = PERMISSIONS.EMAIL_SEND;
const when = (time: number) => formatDateTime(time);

/**
 * Email templates (console-spec §2 /sendRelative/template): the account's templates with their
 * review status, filters, and the actions of each (preview, edit, copy, submit or cancel review,
 * delete); several can be deleted at once. Changing actions need code 12 at full.
 */
export default function TemplatesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [name, setName] = useState('');
  const [templateType, setTemplateType] = useState<TemplateType | undefined>();
  const [status, setStatus] = useState<TemplateStatus | undefined>();
  const [selected, setSelected] = useState<number[]>([]);
  const filter = { name: name || undefined, templateType, status };
  const list = useQuery({ queryKey: ['templates', filter], queryFn: () => fetchTemplates(filter) });
  const total = useQuery({ queryKey: ['templates', {}], queryFn: () => fetchTemplates() });
  const refresh = () => queries.invalidateQueries({ queryKey: ['templates'] });

  const remove = useMutation({ mutationFn: deleteTemplate, onSettled: refresh });
  const removeMany = useMutation({
    mutationFn: deleteTemplates,
    onSuccess: (_, ids) => {
      setSelected([]);
      toastSuccess(t('templates.deleted', { count: ids.length }));
    },
    onSettled: refresh,
  });
  const copy = useMutation({
    mutationFn: copyTemplate,
    onSuccess: (copied) => toastSuccess(t('templates.copied', { invokeName: copied.invokeName })),
    onSettled: refresh,
  });
  const submit = useMutation({
    mutationFn: commitVerify,
    onSuccess: () => toastSuccess(t('templates.submitted')),
    onSettled: refresh,
  });
  const cancel = useMutation({
    mutationFn: cancelVerify,
    onSuccess: () => toastSuccess(t('templates.cancelled')),
    onSettled: refresh,
  });

  if (list.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const rows = list.data ?? [];
  const count = total.data?.length ?? 0;
  const full = count >= TEMPLATE_MAX;
  const filtered = Boolean(filter.name || filter.templateType || filter.status);
  const editPath = (tpl: TemplateView) =>
    `${tpl.editor === 'dragdrop' ? VISUAL_EDIT_PATH : RICH_EDIT_PATH}?id=${tpl.id}`;

  return (
    <Card className="templates-page">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('templates.title')}{' '}
          <Typography.Text type="secondary" className="templates-count">
            {t('templates.count', { count, max: TEMPLATE_MAX })}
          </Typography.Text>
        </Typography.Title>
        <Can code={SEND} level="full">
          <Space>
            <Button
              type="primary"
              disabled={full}
              title={full ? t('templates.full', { max: TEMPLATE_MAX }) : undefined}
              onClick={() => navigate(RICH_EDIT_PATH)}
              data-testid="template-add-rich"
            >
              {t('templates.addRichText')}
            </Button>
            <Button
              disabled={full}
              title={full ? t('templates.full', { max: TEMPLATE_MAX }) : undefined}
              onClick={() => navigate(VISUAL_EDIT_PATH)}
              data-testid="template-add-visual"
            >
              {t('templates.addDragDrop')}
            </Button>
          </Space>
        </Can>
      </Flex>
      <Flex gap={8} wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('templates.searchPlaceholder')}
          onSearch={setName}
          style={{ width: 280 }}
          data-testid="template-search"
        />
        <Select<TemplateType | ''>
          value={templateType ?? ''}
          onChange={(v) => setTemplateType(v || undefined)}
          style={{ width: 180 }}
          options={[
            { value: '', label: t('templates.allTypes') },
            ...TEMPLATE_TYPES.map((v) => ({ value: v, label: t(`templates.type.${v}`) })),
          ]}
        />
        <Select<TemplateStatus | ''>
          value={status ?? ''}
          onChange={(v) => setStatus(v || undefined)}
          style={{ width: 160 }}
          options={[
            { value: '', label: t('templates.allStatuses') },
            ...TEMPLATE_STATUSES.map((v) => ({ value: v, label: t(`templates.statusName.${v}`) })),
          ]}
        />
        <Can code={SEND} level="full">
          {selected.length > 0 && (
            <Popconfirm
              title={t('templates.batchDeleteConfirm', { count: selected.length })}
              okButtonProps={{ danger: true }}
              onConfirm={() => removeMany.mutateAsync(selected)}
            >
              <Button danger data-testid="template-batch-delete">
                {t('templates.batchDelete', { count: selected.length })}
              </Button>
            </Popconfirm>
          )}
        </Can>
      </Flex>
      <Table<TemplateView>
        rowKey="id"
        loading={list.isPending}
        dataSource={rows}
        pagination={false}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        locale={{
          emptyText: <Empty description={t(filtered ? 'templates.emptyFiltered' : 'templates.empty')} />,
        }}
        onRow={(tpl) => ({ 'data-invoke-name': tpl.invokeName }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('templates.name'), dataIndex: 'name' },
          { title: t('templates.invokeName'), dataIndex: 'invokeName' },
          {
            title: t('templates.templateType'),
            render: (_, tpl) => <Tag>{t(`templates.type.${tpl.templateType}`)}</Tag>,
          },
          { title: t('templates.editor'), render: (_, tpl) => t(`templates.editorKind.${tpl.editor}`) },
          { title: t('templates.subject'), dataIndex: 'subject', ellipsis: true },
          {
            title: t('templates.status'),
            render: (_, tpl) => (
              <Space direction="vertical" size={0}>
                <TemplateStatusTag status={tpl.status} />
                {tpl.status === 'rejected' && tpl.rejectReason && (
                  <Typography.Text type="danger" className="template-reject-reason">
                    {t('templates.rejectReason', { reason: tpl.rejectReason })}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          { title: t('templates.updatedAt'), render: (_, tpl) => when(tpl.updatedAt) },
          {
            title: t('templates.actions'),
            render: (_, tpl) => (
              <Space size={0} wrap>
                <Button type="link" onClick={() => navigate(`${PREVIEW_PATH}?id=${tpl.id}`)}>
                  {t('templates.preview')}
                </Button>
                <Can code={SEND} level="full">
                  {tpl.status !== 'reviewing' && (
                    <Button type="link" onClick={() => navigate(editPath(tpl))}>
                      {t('templates.edit')}
                    </Button>
                  )}
                  <Button type="link" disabled={full} onClick={() => copy.mutate(tpl.id)}>
                    {t('templates.copy')}
                  </Button>
                  {(tpl.status === 'unsubmitted' || tpl.status === 'rejected') && (
                    <Popconfirm
                      title={t('templates.commitVerifyConfirm', { name: tpl.name })}
                      onConfirm={() => submit.mutateAsync(tpl.id)}
                    >
                      <Button type="link" data-testid="template-commit">
                        {t('templates.commitVerify')}
                      </Button>
                    </Popconfirm>
                  )}
                  {tpl.status === 'reviewing' && (
                    <Popconfirm
                      title={t('templates.cancelVerifyConfirm', { name: tpl.name })}
                      onConfirm={() => cancel.mutateAsync(tpl.id)}
                    >
                      <Button type="link" data-testid="template-cancel">
                        {t('templates.cancelVerify')}
                      </Button>
                    </Popconfirm>
                  )}
                  <Popconfirm
                    title={t('templates.deleteConfirm', { name: tpl.name })}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => remove.mutateAsync(tpl.id)}
                  >
                    <Button type="link" danger>
                      {t('templates.delete')}
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
