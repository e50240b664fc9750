import type { TemplateReviewView, TemplateStatus } from '@herald/shared/schemas/template.schema';
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
  rejectTemplate,
} from '../../api/admin.api.ts';
import {
  approveSmsTemplate,
  fetchSmsTemplateReviews,
  rejectSmsTemplate,
  type SmsTemplateReviewView,
} from '../../api/sms-templates.api.ts';
import { zodRule } from '../../components/form-rules.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { TemplateFrame } from '../send-relative/TemplateFrame.tsx';
import { TemplateStatusTag } from '../send-relative/TemplateStatusTag.tsx';
import { toastSuccess } from '../send-relative/template-toast.ts';
import { SmsCountLine } from '../sms-send-relative/SmsCountLine.tsx';
import { SmsPhonePreview } from '../sms-send-relative/SmsPhonePreview.tsx';

const STATUSES: TemplateStatus[] = ['reviewing', 'passed', 'rejected'];
const STATUS_LABEL = {
  reviewing: 'admin.statusReviewing',
  passed: 'admin.statusPassed',
  rejected: 'admin.statusRejected',
} as const;
const when = (time: number | null) => (time === null ? '—' : formatDateTime(time));

/**
 * One row of the review list: an email template, or an SMS, voice or MMS one (another table,
 * so another id space: rows are keyed by source and id).
 */
type Row =
  | { source: 'email'; key: string; tpl: TemplateReviewView; time: number | null }
  | { source: 'sms'; key: string; tpl: SmsTemplateReviewView; time: number | null };

function rowsOf(
  status: TemplateStatus,
  email: TemplateReviewView[] | undefined,
  sms: SmsTemplateReviewView[] | undefined,
): Row[] {
  const rows: Row[] = [
    ...(email ?? []).map((tpl) => ({
      source: 'email' as const,
      key: `email-${tpl.id}`,
      tpl,
      time: status === 'reviewing' ? tpl.submittedAt : tpl.reviewedAt,
    })),
    ...(sms ?? []).map((tpl) => ({ source: 'sms' as const, key: `sms-${tpl.id}`, tpl, time: tpl.updatedAt })),
  ];
  const order = status === 'reviewing' ? 1 : -1;
  return rows.sort((a, b) => order * ((a.time ?? 0) - (b.time ?? 0)));
}

/** An SMS, voice or MMS template for the operator: what the handset shows, signature and examples in place. */
function SmsPreviewModal({ target, onClose }: { target: SmsTemplateReviewView | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={target !== null}
      onCancel={onClose}
      footer={null}
      width={560}
      title={
        target
          ? t('smsTemplates.review.previewTitle', { name: target.name, account: target.accountName })
          : ''
      }
    >
      {target && (
        <div className="admin-sms-preview">
          <Typography.Paragraph>
            {t(`smsTemplates.kinds.${target.kind}`)} · {t(`smsTemplates.types.${target.smsType}`)} ·{' '}
            {target.signName
              ? t('smsTemplates.review.signLine', { sign: target.signName })
              : t('smsTemplates.review.noSign')}
          </Typography.Paragraph>
          <Typography.Paragraph type="secondary" style={{ whiteSpace: 'pre-wrap' }}>
            {target.content}
          </Typography.Paragraph>
          {Object.keys(target.variables).length > 0 && (
            <Typography.Paragraph type="secondary">
              {t('admin.variables', {
                list: Object.entries(target.variables)
                  .map(([name, example]) => `%${name}%=${example}`)
                  .join(' '),
              })}
            </Typography.Paragraph>
          )}
          <SmsPhonePreview text={target.preview.text} pages={target.preview.pages} />
          {target.preview.count && (
            <div style={{ marginTop: 8 }}>
              <SmsCountLine count={target.preview.count} />
            </div>
          )}
        </div>
      )}
    </Modal>
  );
}

/** The template's content for the operator: subject, variables and the HTML in a sandboxed frame. */
function PreviewModal({ target, onClose }: { target: TemplateReviewView | null; onClose: () => void }) {
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
function RejectModal({ target, onClose }: { target: Row | null; onClose: (done: boolean) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const reject = useMutation({
    mutationFn: ({ row, reason }: { row: Row; reason: string }) =>
      row.source === 'email' ? rejectTemplate(row.tpl.id, reason) : rejectSmsTemplate(row.tpl.id, reason),
    onSuccess: () => {
      toastSuccess(t('admin.rejected'));
      form.resetFields();
      onClose(true);
    },
  });
  return (
    <Modal
      open={target !== null}
      title={target ? t('admin.rejectTitle', { name: target.tpl.name }) : ''}
      okText={t('admin.reject')}
      okButtonProps={{ danger: true, loading: reject.isPending, className: 'admin-reject-ok' }}
      onCancel={() => onClose(false)}
      onOk={async () => {
        const { reason } = await form.validateFields();
        if (target) reject.mutate({ row: target, reason });
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
 * review across all accounts, email and SMS, voice and MMS in one list with their kind, the
 * account's name, a preview (a sandboxed frame for email, the handset's view with signature and
 * examples for SMS), approve, and reject with a reason. Reviewed templates can be looked up under
 * the other two tabs.
 */
export default function AdminTemplatesPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [status, setStatus] = useState<TemplateStatus>('reviewing');
  const [preview, setPreview] = useState<TemplateReviewView | null>(null);
  const [smsPreview, setSmsPreview] = useState<SmsTemplateReviewView | null>(null);
  const [rejecting, setRejecting] = useState<Row | null>(null);
  const list = useQuery({
    queryKey: ['admin-templates', status],
    queryFn: () => fetchReviewTemplates(status),
  });
  const smsList = useQuery({
    queryKey: ['admin-templates', 'sms', status],
    queryFn: () => fetchSmsTemplateReviews(status),
  });
  const refresh = () => queries.invalidateQueries({ queryKey: ['admin-templates'] });
  const approve = useMutation({
    mutationFn: (row: Row) =>
      row.source === 'email' ? approveTemplate(row.tpl.id) : approveSmsTemplate(row.tpl.id),
    onSuccess: () => toastSuccess(t('admin.approved')),
    onSettled: refresh,
  });

  if (list.isError || smsList.isError) return <Result status="warning" title={t('admin.loadFailed')} />;

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
      <Table<Row>
        rowKey="key"
        loading={list.isPending || smsList.isPending}
        dataSource={rowsOf(status, list.data, smsList.data)}
        pagination={false}
        onRow={(row) => {
          const attributes: Record<string, string> =
            row.source === 'email'
              ? { 'data-invoke-name': row.tpl.invokeName, 'data-kind': 'email' }
              : { 'data-sms-template-name': row.tpl.name, 'data-kind': row.tpl.kind };
          return attributes as React.HTMLAttributes<HTMLElement>;
        }}
        locale={{
          emptyText: <Empty description={t(status === 'reviewing' ? 'admin.empty' : 'admin.emptyOther')} />,
        }}
        columns={[
          { title: t('admin.account'), render: (_, row) => row.tpl.accountName },
          {
            title: t('smsTemplates.review.kind'),
            render: (_, row) => (
              <Tag color={row.source === 'email' ? 'blue' : 'green'} className="admin-template-kind">
                {t(`smsTemplates.kinds.${row.source === 'email' ? 'email' : row.tpl.kind}`)}
              </Tag>
            ),
          },
          { title: t('admin.name'), render: (_, row) => row.tpl.name },
          {
            title: t('admin.invokeName'),
            render: (_, row) => (row.source === 'email' ? row.tpl.invokeName : '—'),
          },
          {
            title: t('admin.type'),
            render: (_, row) => (
              <Tag>
                {row.source === 'email'
                  ? t(`templates.type.${row.tpl.templateType}`)
                  : t(`smsTemplates.types.${row.tpl.smsType}`)}
              </Tag>
            ),
          },
          {
            title: t('admin.subject'),
            ellipsis: true,
            render: (_, row) =>
              row.source === 'email' ? (
                row.tpl.subject
              ) : (
                <span className="admin-sms-text">{row.tpl.preview.text}</span>
              ),
          },
          {
            title: status === 'reviewing' ? t('admin.submittedAt') : t('admin.reviewedAt'),
            render: (_, row) => when(row.time),
          },
          ...(status === 'rejected'
            ? [{ title: t('admin.reason'), render: (_: unknown, row: Row) => row.tpl.rejectReason }]
            : []),
          {
            title: t('admin.actions'),
            render: (_, row) => (
              <Space size={0}>
                <Button
                  type="link"
                  onClick={() => (row.source === 'email' ? setPreview(row.tpl) : setSmsPreview(row.tpl))}
                  data-testid="admin-preview"
                >
                  {t('admin.preview')}
                </Button>
                {row.tpl.status === 'reviewing' ? (
                  <>
                    <Popconfirm
                      title={t('admin.approveConfirm', { name: row.tpl.name, account: row.tpl.accountName })}
                      onConfirm={() => approve.mutateAsync(row)}
                    >
                      <Button type="link" data-testid="admin-approve">
                        {t('admin.approve')}
                      </Button>
                    </Popconfirm>
                    <Button type="link" danger onClick={() => setRejecting(row)} data-testid="admin-reject">
                      {t('admin.reject')}
                    </Button>
                  </>
                ) : row.source === 'email' ? (
                  <TemplateStatusTag status={row.tpl.status} />
                ) : (
                  <Tag className="template-status" data-status={row.tpl.status}>
                    {t(`smsTemplates.status.${row.tpl.status}`)}
                  </Tag>
                )}
              </Space>
            ),
          },
        ]}
      />
      <PreviewModal target={preview} onClose={() => setPreview(null)} />
      <SmsPreviewModal target={smsPreview} onClose={() => setSmsPreview(null)} />
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
