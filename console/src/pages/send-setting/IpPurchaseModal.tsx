import {
  DEDICATED_IP_MAX_COUNT,
  DEDICATED_IP_MAX_MONTHS,
  DEDICATED_IP_MIN_MONTHS,
  type DedicatedIpPurchaseInput,
  dedicatedIpFees,
  dedicatedIpPurchaseSchema,
} from '@herald/shared/schemas/dedicated-ip.schema';
import { Alert, Button, Descriptions, Form, InputNumber, Modal, Popconfirm, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { buyDedicatedIps } from '../../api/dedicated-ips.api.ts';
import { showFormError, zodRule } from '../../components/form-rules.ts';
import { fenToYuan } from '../../components/money.ts';
import { useFormSave } from '../../components/use-form-save.ts';

interface Props {
  open: boolean;
  domains: { id: number; name: string }[];
  balanceFen: number;
  onClose(): void;
  onBought(): void;
}

/**
 * The purchase form of the IP management screen: a sending domain, how many addresses and for
 * how many months (a year at least), with the cost worked out live by the same shared function
 * the server bills with (the rest of this month by day, then 500 yuan per address a month), and
 * a confirmation before buying, since the fees are taken from the balance every month.
 */
export function IpPurchaseModal({ open, domains, balanceFen, onClose, onBought }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<DedicatedIpPurchaseInput>();
  const count = Form.useWatch('count', form);
  const months = Form.useWatch('months', form);
  const domainId = Form.useWatch('domainId', form);
  const valid = dedicatedIpPurchaseSchema.safeParse({ domainId: domainId ?? 1, count, months }).success;
  const fees = valid ? dedicatedIpFees(count, months, Date.now()) : null;
  const domain = domains.find((d) => d.id === domainId)?.name ?? '';

  const { submit, saving } = useFormSave(
    async (values: DedicatedIpPurchaseInput) => {
      await buyDedicatedIps(values);
      form.resetFields();
      onBought();
    },
    (error) => showFormError(form, error),
  );

  return (
    <Modal
      open={open}
      title={t('dedicatedIps.buyTitle')}
      onCancel={onClose}
      destroyOnHidden
      className="ip-purchase-modal"
      footer={
        <Space>
          <Button onClick={onClose}>{t('dedicatedIps.cancel')}</Button>
          <Popconfirm
            title={t('dedicatedIps.confirmTitle')}
            description={
              fees
                ? t('dedicatedIps.confirmText', {
                    ips: fees.count,
                    domain,
                    months: fees.months,
                    monthly: fenToYuan(fees.monthlyFen),
                    first: fenToYuan(fees.firstMonthFen),
                  })
                : undefined
            }
            disabled={!fees || !domain}
            okText={t('dedicatedIps.confirmOk')}
            okButtonProps={{ className: 'ip-purchase-confirm' }}
            cancelText={t('dedicatedIps.cancel')}
            onConfirm={() => form.submit()}
          >
            <Button
              type="primary"
              loading={saving}
              disabled={!fees || !domain}
              data-testid="ip-purchase-submit"
            >
              {t('dedicatedIps.buy')}
            </Button>
          </Popconfirm>
        </Space>
      }
    >
      <Form<DedicatedIpPurchaseInput>
        form={form}
        layout="vertical"
        initialValues={{ count: 1, months: DEDICATED_IP_MIN_MONTHS }}
        onFinish={submit}
      >
        <Form.Item
          name="domainId"
          label={t('dedicatedIps.domain')}
          extra={t('dedicatedIps.domainHint')}
          rules={[zodRule(dedicatedIpPurchaseSchema.shape.domainId)]}
        >
          <Select
            className="ip-purchase-domain"
            placeholder={t('dedicatedIps.domainPlaceholder')}
            options={domains.map((d) => ({ value: d.id, label: d.name }))}
          />
        </Form.Item>
        <Space size={16} wrap align="start">
          <Form.Item
            name="count"
            label={t('dedicatedIps.count')}
            rules={[zodRule(dedicatedIpPurchaseSchema.shape.count)]}
          >
            <InputNumber min={1} max={DEDICATED_IP_MAX_COUNT} precision={0} data-testid="ip-purchase-count" />
          </Form.Item>
          <Form.Item
            name="months"
            label={t('dedicatedIps.months')}
            extra={t('dedicatedIps.monthsHint', {
              min: DEDICATED_IP_MIN_MONTHS,
              max: DEDICATED_IP_MAX_MONTHS,
            })}
            rules={[zodRule(dedicatedIpPurchaseSchema.shape.months)]}
          >
            <InputNumber
              min={DEDICATED_IP_MIN_MONTHS}
              max={DEDICATED_IP_MAX_MONTHS}
              precision={0}
              data-testid="ip-purchase-months"
            />
          </Form.Item>
        </Space>
        {fees && (
          <Descriptions size="small" column={1} bordered className="ip-purchase-cost">
            <Descriptions.Item label={t('dedicatedIps.firstMonth', { days: fees.firstMonthDays })}>
              <span className="ip-purchase-first">¥{fenToYuan(fees.firstMonthFen)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('dedicatedIps.monthly')}>
              <span className="ip-purchase-monthly">¥{fenToYuan(fees.monthlyFen)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('dedicatedIps.total', { months: fees.months })}>
              <span className="ip-purchase-total">¥{fenToYuan(fees.totalFen)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('dedicatedIps.payment')}>
              {t('dedicatedIps.paymentBalance', { balance: fenToYuan(balanceFen) })}
            </Descriptions.Item>
          </Descriptions>
        )}
        {fees && balanceFen < fees.firstMonthFen && (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 16 }}
            className="ip-purchase-low-balance"
            title={t('dedicatedIps.lowBalance', { first: fenToYuan(fees.firstMonthFen) })}
          />
        )}
      </Form>
    </Modal>
  );
}
