import type { TemplateStatus } from '@herald/shared/schemas/template.schema';
import { templateRejectSchema } from '@herald/shared/schemas/template.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Empty,
  Flex,
  Form,
  Input,
  Modal,
  Popconfirm,
  Result,
  Segmented,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  approveTemplate,
  fetchReviewTemplate,
  fetchReviewTemplates,
  type ReviewTemplate,
  rejectTemplate,
} from '../../api/admin.api.ts';
import { zodRule } from '../../components/form-rules.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { TemplateFrame } from '../send-relative/TemplateFrame.tsx';
import { TemplateStatusTag } from '../send-relative/TemplateStatusTag.tsx';
import { toastSuccess } from '../send-relative/template-toast.ts';

const STATUSES: TemplateStatus[] = ['reviewing', 'passed', 'rejected'];
const STATUS_LABEL = {
  reviewing: 'admin.statusReviewing',
  passed: 'admin.statusPassed',
  rejected: 'admin.statusRejected',
} as const;
const when = (time: number | null) => (time === null ? '—' : formatDateTime(time));

/** The template's content for the operator: subject, variables and the HTML in a sandboxed frame. */
function PreviewModal({ target, onClose }: { target: ReviewTemplate | null; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useQuery({
    queryKey: ['admin-template', target?.id],
    queryFn: () => fetchReviewTemplate(target?.id as number),
    enabled: target !== null,
  });
  return (
    <Modal
      open={target !== null}
      onCancel={onClose}
      footer={null}
      width={860}
      title={target ? t('admin.previewTitle', { name: target.name, account: target.accountName }) : ''}
    >
      {detail.data && (
        <>
          <Typography.Paragraph>
            {t('admin.previewSubject', { subject: detail.data.subject })}
          </Typography.Paragraph>
          {detail.data.variables.length > 0 && (
            <Typography.Paragraph type="secondary">
              {t('admin.variables', { list: detail.data.variables.map((v) => `%${v}%`).join(' ') })}
            </Typography.Paragraph>
          )}
          <TemplateFrame html={detail.data.html} title={detail.data.name} height={480} />
        </>
      )}
    </Modal>
  );
}

/** The reason is required (shared schema): the customer sees it next to the template. */
function RejectModal({
  target,
  onClose,
}: {
  target: ReviewTemplate | null;
  onClose: (done: boolean) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const reject = useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) => rejectTemplate(id, reason),
    onSuccess: () => {
      toastSuccess(t('admin.rejected'));
      form.resetFields();
      onClose(true);
    },
  });
  return (
    <Modal
      open={target !== null}
      title={target ? t('admin.rejectTitle', { name: target.name }) : ''}
      okText={t('admin.reject')}
      okButtonProps={{ danger: true, loading: reject.isPending, className: 'admin-reject-ok' }}
      onCancel={() => onClose(false)}
      onOk={async () => {
        const { reason } = await form.validateFields();
        if (target) reject.mutate({ id: target.id, reason });
      }}
    >
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label={t('admin.rejectReason')}
          rules={[zodRule(templateRejectSchema.shape.reason)]}
        >
          <Input.TextArea rows={4} maxLength={500} showCount data-testid="admin-reject-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * The operators' template review (/admin/templates, outside console-spec §2): templates awaiting
 * review across all accounts, with the account's name, a sandboxed preview, approve, and reject
 * with a reason. Reviewed templates can be looked up under the other two tabs.
 */
export default function AdminTemplatesPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [status, setStatus] = useState<TemplateStatus>('reviewing');
  const [preview, setPreview] = useState<ReviewTemplate | null>(null);
  const [rejecting, setRejecting] = useState<ReviewTemplate | null>(null);
  const list = useQuery({
    queryKey: ['admin-templates', status],
    queryFn: () => fetchReviewTemplates(status),
  });
  const refresh = () => queries.invalidateQueries({ queryKey: ['admin-templates'] });
  const approve = useMutation({
    mutationFn: approveTemplate,
    onSuccess: () => toastSuccess(t('admin.approved')),
    onSettled: refresh,
  });

  if (list.isError) return <Result status="warning" title={t('admin.loadFailed')} />;

  return (
    <Card className="admin-templates-page">
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('admin.templatesTitle')}
        </Typography.Title>
        <Segmented<TemplateStatus>
          value={status}
          onChange={setStatus}
          options={STATUSES.map((s) => ({
            value: s,
            label: t(STATUS_LABEL[s as keyof typeof STATUS_LABEL]),
          }))}
        />
      </Flex>
      <Table<ReviewTemplate>
        rowKey="id"
        loading={list.isPending}
        dataSource={list.data ?? []}
        pagination={false}
        onRow={(tpl) => ({ 'data-invoke-name': tpl.invokeName }) as React.HTMLAttributes<HTMLElement>}
        locale={{
          emptyText: <Empty description={t(status === 'reviewing' ? 'admin.empty' : 'admin.emptyOther')} />,
        }}
        columns={[
          { title: t('admin.account'), dataIndex: 'accountName' },
          { title: t('admin.name'), dataIndex: 'name' },
          { title: t('admin.invokeName'), dataIndex: 'invokeName' },
          {
            title: t('admin.type'),
            render: (_, tpl) => <Tag>{t(`templates.type.${tpl.templateType}`)}</Tag>,
          },
          { title: t('admin.subject'), dataIndex: 'subject', ellipsis: true },
          {
            title: status === 'reviewing' ? t('admin.submittedAt') : t('admin.reviewedAt'),
            render: (_, tpl) => when(status === 'reviewing' ? tpl.submittedAt : tpl.reviewedAt),
          },
          ...(status === 'rejected'
            ? [{ title: t('admin.reason'), render: (_: unknown, tpl: ReviewTemplate) => tpl.rejectReason }]
            : []),
          {
            title: t('admin.actions'),
            render: (_, tpl) => (
              <Space size={0}>
                <Button type="link" onClick={() => setPreview(tpl)} data-testid="admin-preview">
                  {t('admin.preview')}
                </Button>
                {tpl.status === 'reviewing' ? (
                  <>
                    <Popconfirm
                      title={t('admin.approveConfirm', { name: tpl.name, account: tpl.accountName })}
                      onConfirm={() => approve.mutateAsync(tpl.id)}
                    >
                      <Button type="link" data-testid="admin-approve">
                        {t('admin.approve')}
                      </Button>
                    </Popconfirm>
                    <Button type="link" danger onClick={() => setRejecting(tpl)} data-testid="admin-reject">
                      {t('admin.reject')}
                    </Button>
                  </>
                ) : (
                  <TemplateStatusTag status={tpl.status} />
                )}
              </Space>
            ),
          },
        ]}
      />
      <PreviewModal target={preview} onClose={() => setPreview(null)} />
      <RejectModal
        target={rejecting}
        onClose={(done) => {
          setRejecting(null);
          if (done) void refresh();
        }}
      />
    </Card>
  );
}
