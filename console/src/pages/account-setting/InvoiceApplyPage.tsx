import {
  INVOICE_DELIVERIES,
  INVOICE_METHODS,
  INVOICE_TYPES,
  type InvoiceApplyInput,
  invoiceApplySchema,
  invoicePostageFen,
} from '@herald/shared/schemas/invoice.schema';
import { yuanToFen } from '@herald/shared/schemas/recharge.schema';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Input,
  Radio,
  Result,
  Space,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import {
  applyInvoice,
  fetchInvoice,
  fetchInvoiceSummary,
  type InvoiceView,
  resubmitInvoice,
} from '../../api/invoices.api.ts';
import { checkWithSchema, showFormError, zodRule } from '../../components/form-rules.ts';
import { fenToYuan } from '../../components/money.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';

const LIST_PATH = '/accountSetting/financialMangement/ticket';
const INFO_PATH = '/accountSetting/financialMangement/createTicketInfo';
const CHARGE_PATH = '/accountSetting/financialMangement/charge';

type ApplyForm = Required<Pick<InvoiceApplyInput, 'amount' | 'type' | 'material' | 'delivery' | 'method'>> &
  Pick<InvoiceApplyInput, 'email' | 'recipient' | 'recipientPhone' | 'mailingAddress' | 'note'>;

const NEW_APPLICATION: ApplyForm = {
  amount: '',
  type: 'electronic',
  material: 'electronic',
  delivery: 'email',
  method: 'all_in_one',
};

function formOf(invoice: InvoiceView): ApplyForm {
  return {
    amount: fenToYuan(invoice.amountFen).replace(/,/g, ''),
    type: invoice.type,
    material: invoice.material,
    delivery: invoice.delivery,
    method: invoice.method,
    email: invoice.email ?? undefined,
    recipient: invoice.recipient ?? undefined,
    recipientPhone: invoice.recipientPhone ?? undefined,
    mailingAddress: invoice.mailingAddress ?? undefined,
    note: invoice.note ?? undefined,
  };
}

/**
 * Request an invoice (console-spec §2 /accountSetting/financialMangement/applyTicket): the
 * invoiceable amount (paid recharges less what is already applied for), then the amount, type
 * (electronic by email; ordinary or VAT special on paper, by post or paid on arrival), method and
 * where to send it. The postage is shown as the form changes: 18 yuan from the balance under
 * 2,000 yuan by post, free from 2,000. Without invoice details it leads there first. With
 * `?resubmit=<id>` it edits a rejected application, showing the reason, and resubmits it.
 */
export default function InvoiceApplyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [params] = useSearchParams();
  const resubmitId = Number(params.get('resubmit')) || null;
  const [form] = Form.useForm<ApplyForm>();
  const summary = useQuery({ queryKey: ['invoices', 'summary'], queryFn: fetchInvoiceSummary });
  const rejected = useQuery({
    queryKey: ['invoices', 'one', resubmitId],
    queryFn: () => fetchInvoice(resubmitId as number),
    enabled: resubmitId !== null,
  });
  const amount = Form.useWatch('amount', form);
  const initial = rejected.data ? formOf(rejected.data) : NEW_APPLICATION;
  const type = Form.useWatch('type', form) ?? initial.type;
  const delivery = Form.useWatch('delivery', form) ?? initial.delivery;

  const { submit, saving } = useFormSave(
    async (values: ApplyForm) => {
      if (!checkWithSchema(form, invoiceApplySchema, values)) return;
      if (resubmitId) await resubmitInvoice(resubmitId, values);
      else await applyInvoice(values);
      httpEffects().toast(
        'success',
        t(resubmitId ? 'invoices.apply.resubmitted' : 'invoices.apply.applied'),
        SUCCESS_TOAST_SECONDS,
      );
      await queries.invalidateQueries({ queryKey: ['invoices'] });
      navigate(LIST_PATH);
    },
    (error) => showFormError(form, error),
  );

  if (summary.isError || rejected.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const view = summary.data;
  if (!view || (resubmitId && !rejected.data)) return <Card loading />;
  if (!view.profile) {
    return (
      <Card className="invoice-apply-page">
        <Result
          status="info"
          className="invoice-apply-no-profile"
          title={t('invoices.apply.needProfile')}
          subTitle={t('invoices.apply.needProfileText')}
          extra={
            <Button type="primary" onClick={() => navigate(INFO_PATH)} data-testid="invoice-apply-to-info">
              {t('invoices.apply.toInfo')}
            </Button>
          }
        />
      </Card>
    );
  }

  // A resubmission's own amount is back in the pool while it is rejected.
  const available = view.invoiceableFen;
  const fen = typeof amount === 'string' ? yuanToFen(amount.trim()) : null;
  const postage = fen === null ? null : invoicePostageFen({ delivery, amountFen: fen });
  const electronic = type === 'electronic';

  const onTypeChange = (next: ApplyForm['type']) => {
    const nextElectronic = next === 'electronic';
    form.setFieldsValue({
      material: nextElectronic ? 'electronic' : 'paper',
      delivery: nextElectronic ? 'email' : delivery === 'email' ? 'post' : delivery,
    });
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} className="invoice-apply-page">
      <Card>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {t(resubmitId ? 'invoices.apply.resubmitTitle' : 'invoices.apply.title')}
        </Typography.Title>
        <Descriptions column={{ xs: 1, md: 3 }} size="small">
          <Descriptions.Item label={t('invoices.apply.invoiceable')}>
            <strong className="invoice-invoiceable">¥{fenToYuan(available)}</strong>
          </Descriptions.Item>
          <Descriptions.Item label={t('invoices.apply.recharged')}>
            ¥{fenToYuan(view.rechargedFen)}
          </Descriptions.Item>
          <Descriptions.Item label={t('invoices.apply.balance')}>
            ¥{fenToYuan(view.balanceFen)}
          </Descriptions.Item>
          <Descriptions.Item label={t('invoices.apply.buyer')}>
            {view.profile.title} ({view.profile.taxpayerId})
          </Descriptions.Item>
        </Descriptions>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('invoices.apply.rules', {
            postage: fenToYuan(view.postageFen),
            free: fenToYuan(view.freeShippingFen),
            electronicMax: fenToYuan(view.electronicMaxFen),
          })}
        </Typography.Paragraph>
        {rejected.data?.rejectReason && (
          <Alert
            type="error"
            showIcon
            style={{ marginTop: 16 }}
            className="invoice-apply-reject-reason"
            title={t('invoices.list.rejectReason', { reason: rejected.data.rejectReason })}
          />
        )}
      </Card>
      <Card>
        {available === 0 && !resubmitId ? (
          <Empty className="invoice-apply-nothing" description={t('invoices.apply.nothing')}>
            <Button type="primary" onClick={() => navigate(CHARGE_PATH)}>
              {t('invoices.apply.toCharge')}
            </Button>
          </Empty>
        ) : (
          <Form<ApplyForm>
            form={form}
            layout="vertical"
            style={{ maxWidth: 560 }}
            initialValues={initial}
            onFinish={submit}
          >
            <Form.Item
              name="amount"
              label={t('invoices.fields.amount')}
              extra={t('invoices.apply.amountHint', { available: fenToYuan(available) })}
              rules={[zodRule(invoiceApplySchema.shape.amount)]}
            >
              <Input prefix="¥" inputMode="decimal" data-testid="invoice-apply-amount" />
            </Form.Item>
            <Form.Item name="type" label={t('invoices.fields.type')}>
              <Radio.Group onChange={(e) => onTypeChange(e.target.value)}>
                {INVOICE_TYPES.map((v) => (
                  <Radio.Button key={v} value={v} className={`invoice-type-${v}`}>
                    {t(`invoices.types.${v}`)}
                  </Radio.Button>
                ))}
              </Radio.Group>
            </Form.Item>
            <Form.Item name="material" label={t('invoices.fields.material')}>
              <Radio.Group disabled>
                <Radio value="paper">{t('invoices.materials.paper')}</Radio>
                <Radio value="electronic">{t('invoices.materials.electronic')}</Radio>
              </Radio.Group>
            </Form.Item>
            <Form.Item name="delivery" label={t('invoices.fields.delivery')}>
              <Radio.Group>
                {INVOICE_DELIVERIES.filter((d) => (d === 'email') === electronic).map((d) => (
                  <Radio key={d} value={d} className={`invoice-delivery-${d}`}>
                    {t(`invoices.deliveries.${d}`)}
                  </Radio>
                ))}
              </Radio.Group>
            </Form.Item>
            <Form.Item name="method" label={t('invoices.fields.method')}>
              <Radio.Group>
                {INVOICE_METHODS.map((m) => (
                  <Radio key={m} value={m}>
                    {t(`invoices.methods.${m}`)}
                  </Radio>
                ))}
              </Radio.Group>
            </Form.Item>
            {electronic ? (
              <Form.Item name="email" label={t('invoices.fields.email')}>
                <Input type="email" data-testid="invoice-apply-email" />
              </Form.Item>
            ) : (
              <>
                <Form.Item name="recipient" label={t('invoices.fields.recipient')}>
                  <Input data-testid="invoice-apply-recipient" />
                </Form.Item>
                <Form.Item name="recipientPhone" label={t('invoices.fields.recipientPhone')}>
                  <Input data-testid="invoice-apply-recipient-phone" />
                </Form.Item>
                <Form.Item name="mailingAddress" label={t('invoices.fields.mailingAddress')}>
                  <Input data-testid="invoice-apply-mailing-address" />
                </Form.Item>
              </>
            )}
            <Form.Item name="note" label={t('invoices.fields.note')}>
              <Input.TextArea rows={2} maxLength={200} />
            </Form.Item>
            <Typography.Paragraph className="invoice-apply-postage" data-testid="invoice-apply-postage">
              {postage === null
                ? t('invoices.apply.postageUnknown')
                : postage > 0
                  ? t('invoices.apply.postageCharged', { postage: fenToYuan(postage) })
                  : delivery === 'post'
                    ? t('invoices.apply.postageFree', { free: fenToYuan(view.freeShippingFen) })
                    : t('invoices.apply.postageNone')}
            </Typography.Paragraph>
            <Space>
              <Button type="primary" htmlType="submit" loading={saving} data-testid="invoice-apply-submit">
                {t(resubmitId ? 'invoices.apply.resubmit' : 'invoices.apply.submit')}
              </Button>
              <Button onClick={() => navigate(LIST_PATH)}>{t('invoices.cancel')}</Button>
            </Space>
          </Form>
        )}
      </Card>
    </Space>
  );
}
