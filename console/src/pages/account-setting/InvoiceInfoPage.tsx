import { PERMISSIONS } from '@herald/shared/permissions';
import { type InvoiceProfileInput, invoiceProfileSchema } from '@herald/shared/schemas/invoice.schema';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Result, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fetchInvoiceProfile, saveInvoiceProfile } from '../../api/invoices.api.ts';
import { Can } from '../../components/Can.tsx';
import { showFormError, zodRule } from '../../components/form-rules.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';

const FIELDS = ['title', 'taxpayerId', 'bankName', 'bankAccount', 'address', 'phone'] as const;
const APPLY_PATH = '/accountSetting/financialMangement/applyTicket';

/**
 * Invoice details (console-spec §2 /accountSetting/financialMangement/createTicketInfo): the one
 * profile of the account that every invoice is issued to: title, taxpayer ID (an 18-character
 * unified social credit code is checked by its check character, by the same shared rule as the
 * server), bank and account, registered address and phone. Saved, it leads on to applying.
 */
export default function InvoiceInfoPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [form] = Form.useForm<InvoiceProfileInput>();
  const profile = useQuery({ queryKey: ['invoices', 'profile'], queryFn: fetchInvoiceProfile });

  useEffect(() => {
    if (profile.data) form.setFieldsValue(profile.data);
  }, [profile.data, form]);

  const { submit, saving } = useFormSave(
    async (values: InvoiceProfileInput) => {
      const saved = await saveInvoiceProfile(values);
      form.setFieldsValue(saved);
      httpEffects().toast('success', t('invoices.info.saved'), SUCCESS_TOAST_SECONDS);
      await queries.invalidateQueries({ queryKey: ['invoices'] });
    },
    (error) => showFormError(form, error),
  );

  if (profile.isError) return <Result status="warning" title={t('common.loadFailed')} />;

  return (
    <Card loading={profile.isPending} className="invoice-info-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('invoices.info.title')}
      </Typography.Title>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 24 }}
        title={profile.data ? t('invoices.info.hintSaved') : t('invoices.info.hintNew')}
      />
      <Form<InvoiceProfileInput> form={form} layout="vertical" style={{ maxWidth: 560 }} onFinish={submit}>
        {FIELDS.map((field) => (
          <Form.Item
            key={field}
            name={field}
            label={t(`invoices.info.fields.${field}`)}
            extra={field === 'taxpayerId' ? t('invoices.info.taxpayerIdHint') : undefined}
            rules={[zodRule(invoiceProfileSchema.shape[field])]}
          >
            <Input data-testid={`invoice-info-${field}`} />
          </Form.Item>
        ))}
        <Can code={PERMISSIONS.FINANCE} level="full">
          <Space>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="invoice-info-save">
              {t('invoices.info.save')}
            </Button>
            {profile.data && (
              <Button onClick={() => navigate(APPLY_PATH)} data-testid="invoice-info-apply">
                {t('invoices.info.toApply')}
              </Button>
            )}
          </Space>
        </Can>
      </Form>
    </Card>
  );
}
