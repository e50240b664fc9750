import {
  INVOICE_STATUSES,
  type InvoiceStatus,
  invoiceRejectSchema,
  invoiceShipSchema,
} from '@herald/shared/schemas/invoice.schema';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Result,
  Select,
  Space,
  Table,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type AdminInvoiceAction,
  type AdminInvoiceView,
  fetchAdminInvoices,
  processInvoice,
} from '../../api/invoices.api.ts';
import { showFormError, zodRule } from '../../components/form-rules.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { fenToYuan } from '../../components/money.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { InvoiceStatusTag } from '../account-setting/InvoiceStatusTag.tsx';

const PAGE_SIZE = 20;
const VOIDABLE: InvoiceStatus[] = ['applied', 'invoiced', 'shipped', 'emailed', 'rejected'];

interface Prompt {
  invoice: AdminInvoiceView;
  action: 'shipped' | 'reject';
}

/**
 * The operators' invoices (/admin/invoices, issue 18): every account's applications, newest
 * first, filtered by status and account, with the buyer's details and where it goes. An applied
 * one is marked invoiced, rejected with a reason the customer sees, or (straight away) shipped or
 * e-mailed; an invoiced paper one is shipped with its express number, an electronic one e-mailed;
 * any may be voided after a confirmation (the amount returns to the customer's pool).
 */
export default function AdminInvoicesPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [status, setStatus] = useState<InvoiceStatus | undefined>('applied');
  const [accountId, setAccountId] = useState<number | undefined>();
  const [pageNum, setPageNum] = useState(1);
  const [prompt, setPrompt] = useState<Prompt | null>(null);
  const list = useQuery({
    queryKey: ['admin-invoices', status, accountId, pageNum],
    queryFn: () => fetchAdminInvoices({ status, accountId, pageNum, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const step = useMutation({
    mutationFn: ({ id, action }: { id: number; action: AdminInvoiceAction }) => processInvoice(id, action),
    onSettled: () => queries.invalidateQueries({ queryKey: ['admin-invoices'] }),
  });

  if (list.isError) return <Result status="warning" title={t('common.loadFailed')} />;

  const actions = (row: AdminInvoiceView) => {
    const paper = row.material === 'paper';
    const open = row.status === 'applied' || row.status === 'invoiced';
    return (
      <Space size={0} wrap>
        {row.status === 'applied' && (
          <Button
            type="link"
            data-testid="admin-invoice-invoiced"
            onClick={() => step.mutate({ id: row.id, action: 'invoiced' })}
          >
            {t('invoices.admin.markInvoiced')}
          </Button>
        )}
        {open && paper && (
          <Button
            type="link"
            data-testid="admin-invoice-ship"
            onClick={() => setPrompt({ invoice: row, action: 'shipped' })}
          >
            {t('invoices.admin.ship')}
          </Button>
        )}
        {open && !paper && (
          <Popconfirm
            title={t('invoices.admin.emailConfirm', { email: row.email ?? '' })}
            okText={t('invoices.admin.email')}
            cancelText={t('invoices.cancel')}
            onConfirm={() => step.mutateAsync({ id: row.id, action: 'emailed' })}
          >
            <Button type="link" data-testid="admin-invoice-email">
              {t('invoices.admin.email')}
            </Button>
          </Popconfirm>
        )}
        {row.status === 'applied' && (
          <Button
            type="link"
            danger
            data-testid="admin-invoice-reject"
            onClick={() => setPrompt({ invoice: row, action: 'reject' })}
          >
            {t('invoices.admin.reject')}
          </Button>
        )}
        {VOIDABLE.includes(row.status) && (
          <Popconfirm
            title={t('invoices.admin.voidConfirm')}
            description={t('invoices.admin.voidConfirmText', { amount: fenToYuan(row.amountFen) })}
            okText={t('invoices.list.void')}
            cancelText={t('invoices.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => step.mutateAsync({ id: row.id, action: 'void' })}
          >
            <Button type="link" danger data-testid="admin-invoice-void">
              {t('invoices.list.void')}
            </Button>
          </Popconfirm>
        )}
      </Space>
    );
  };

  return (
    <Card className="admin-invoices-page">
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }} gap={16} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('invoices.admin.title')}
        </Typography.Title>
        <Space wrap>
          <Select<InvoiceStatus | 'all'>
            value={status ?? 'all'}
            style={{ width: 160 }}
            data-testid="admin-invoices-status"
            onChange={(value) => {
              setStatus(value === 'all' ? undefined : value);
              setPageNum(1);
            }}
            options={[
              { value: 'all', label: t('invoices.admin.allStatuses') },
              ...INVOICE_STATUSES.map((s) => ({ value: s, label: t(`invoices.statuses.${s}`) })),
            ]}
          />
          <InputNumber<number>
            min={1}
            placeholder={t('invoices.admin.accountId')}
            style={{ width: 160 }}
            onChange={(value) => {
              setAccountId(value ?? undefined);
              setPageNum(1);
            }}
          />
        </Space>
      </Flex>
      <Table<AdminInvoiceView>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        scroll={{ x: true }}
        onRow={(row) => ({ 'data-invoice-id': row.id }) as React.HTMLAttributes<HTMLElement>}
        locale={{ emptyText: <Empty description={t('invoices.admin.empty')} /> }}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          onChange: setPageNum,
          showSizeChanger: false,
        }}
        columns={[
          {
            title: t('invoices.admin.account'),
            render: (_, row) => (
              <Flex vertical>
                <span>{row.userName}</span>
                <Typography.Text type="secondary">
                  #{row.accountId} · {formatDateTime(row.createdAt)}
                </Typography.Text>
              </Flex>
            ),
          },
          {
            title: t('invoices.fields.amount'),
            render: (_, row) => (
              <Flex vertical>
                <span>¥{fenToYuan(row.amountFen)}</span>
                <Typography.Text type="secondary">
                  {t(`invoices.types.${row.type}`)} · {t(`invoices.methods.${row.method}`)}
                </Typography.Text>
              </Flex>
            ),
          },
          {
            title: t('invoices.admin.buyer'),
            render: (_, row) => (
              <Flex vertical>
                <span>{row.profile.title}</span>
                <Typography.Text type="secondary">{row.profile.taxpayerId}</Typography.Text>
                <Typography.Text type="secondary">
                  {row.profile.bankName} {row.profile.bankAccount}
                </Typography.Text>
                <Typography.Text type="secondary">
                  {row.profile.address} {row.profile.phone}
                </Typography.Text>
              </Flex>
            ),
          },
          {
            title: t('invoices.fields.delivery'),
            render: (_, row) => (
              <Flex vertical>
                <span>
                  {t(`invoices.deliveries.${row.delivery}`)}
                  {row.postageFen > 0 &&
                    ` (${t('invoices.list.postagePaid', { postage: fenToYuan(row.postageFen) })})`}
                </span>
                <Typography.Text type="secondary">
                  {row.email ??
                    `${row.recipient ?? ''} ${row.recipientPhone ?? ''} ${row.mailingAddress ?? ''}`}
                </Typography.Text>
                {row.note && <Typography.Text type="secondary">{row.note}</Typography.Text>}
              </Flex>
            ),
          },
          {
            title: t('invoices.list.status'),
            render: (_, row) => (
              <Flex vertical gap={4}>
                <span>
                  <InvoiceStatusTag status={row.status} />
                </span>
                {row.rejectReason && row.status === 'rejected' && (
                  <Typography.Text type="danger">{row.rejectReason}</Typography.Text>
                )}
                {row.expressNo && <Typography.Text>{row.expressNo}</Typography.Text>}
              </Flex>
            ),
          },
          { title: t('invoices.list.actions'), render: (_, row) => actions(row) },
        ]}
      />
      {prompt && (
        <PromptModal
          prompt={prompt}
          onClose={() => setPrompt(null)}
          onDone={() => {
            setPrompt(null);
            return queries.invalidateQueries({ queryKey: ['admin-invoices'] });
          }}
        />
      )}
    </Card>
  );
}

/** The express number of a shipment or the reason of a rejection. */
function PromptModal({
  prompt,
  onClose,
  onDone,
}: {
  prompt: Prompt;
  onClose: () => void;
  onDone: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ value: string }>();
  const reject = prompt.action === 'reject';
  const { submit, saving } = useFormSave(
    async ({ value }: { value: string }) => {
      await processInvoice(
        prompt.invoice.id,
        prompt.action,
        reject ? { reason: value } : { expressNo: value },
      );
      await onDone();
    },
    (error) => showFormError(form, error),
  );
  return (
    <Modal
      open
      title={t(reject ? 'invoices.admin.rejectTitle' : 'invoices.admin.shipTitle', {
        amount: fenToYuan(prompt.invoice.amountFen),
        title: prompt.invoice.profile.title,
      })}
      okText={t(reject ? 'invoices.admin.reject' : 'invoices.admin.ship')}
      cancelText={t('invoices.cancel')}
      okButtonProps={{ loading: saving, danger: reject, className: 'admin-invoice-prompt-ok' }}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="value"
          label={t(reject ? 'invoices.admin.reason' : 'invoices.admin.expressNo')}
          rules={[zodRule(reject ? invoiceRejectSchema.shape.reason : invoiceShipSchema.shape.expressNo)]}
        >
          {reject ? (
            <Input.TextArea rows={3} maxLength={200} data-testid="admin-invoice-prompt-value" />
          ) : (
            <Input maxLength={64} data-testid="admin-invoice-prompt-value" />
          )}
        </Form.Item>
      </Form>
    </Modal>
  );
}
