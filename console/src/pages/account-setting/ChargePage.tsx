import { AlipayCircleOutlined, DollarCircleOutlined } from '@ant-design/icons';
import { LOW_BALANCE_FEN } from '@herald/shared/schemas/ledger.schema';
import {
  paypalChargeCents,
  type RechargeMethod,
  rechargeInputSchema,
  yuanToFen,
} from '@herald/shared/schemas/recharge.schema';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, Form, Input, Radio, Result, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchRechargeOptions, startRecharge } from '../../api/recharges.api.ts';
import { applyFieldErrors, zodRule } from '../../components/form-rules.ts';
import { fenToYuan } from '../../components/money.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { useSessionStore } from '../../stores/session.store.ts';
import { RechargeOrdersTable } from './RechargeOrdersTable.tsx';

const QUICK_AMOUNTS = ['100', '500', '1000', '5000'];

interface ChargeForm {
  amount: string;
  method: RechargeMethod;
}

/**
 * Top up (console-spec §2 /accountSetting/financialMangement/charge): the amount (at least 9.9
 * yuan, checked by the same rule as the server) and the method the operator has set up; placing
 * the order sends the browser to Alipay's or PayPal's page, which sends it back to the result
 * screen. PayPal shows what it will charge in its currency. A free account is told its first
 * recharge makes it paid. With no online method set up, the screen says how to pay by transfer.
 * The account's recent orders follow.
 */
export default function ChargePage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<ChargeForm>();
  const balance = useSessionStore((state) => state.userBalance);
  const options = useQuery({ queryKey: ['recharge', 'options'], queryFn: fetchRechargeOptions });
  const amount = Form.useWatch('amount', form);
  const method = Form.useWatch('method', form);

  const { submit, saving } = useFormSave(
    async (values: ChargeForm) => {
      const started = await startRecharge(values.method, values.amount.trim());
      window.location.assign(started.payUrl);
    },
    (error) => applyFieldErrors(form, error),
  );

  if (options.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const view = options.data;
  const paypal = view?.paypal ?? null;
  const fen = typeof amount === 'string' ? yuanToFen(amount) : null;
  const paypalCharge =
    method === 'paypal' && paypal && fen !== null
      ? `${paypal.currency} ${fenToYuan(paypalChargeCents(fen, paypal.rateFen))}`
      : null;

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} className="charge-page">
      <Card loading={options.isPending}>
        <Flex justify="space-between" align="center" wrap gap={8}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('recharge.title')}
          </Typography.Title>
          <Typography.Text>
            {t('recharge.balance')}{' '}
            <strong className="charge-balance">¥{balance ? fenToYuan(balance.balance) : '--'}</strong>
          </Typography.Text>
        </Flex>
        {view?.free && (
          <Alert
            type="info"
            showIcon
            className="charge-free-notice"
            style={{ marginTop: 16 }}
            title={t('recharge.freeNotice', { min: fenToYuan(view.minFen) })}
          />
        )}
        {view && !view.free && balance && balance.balance < LOW_BALANCE_FEN && (
          <Alert
            type={balance.balance <= 0 ? 'error' : 'warning'}
            showIcon
            className="charge-low-balance"
            style={{ marginTop: 16 }}
            title={
              balance.balance <= 0
                ? t('recharge.exhausted')
                : t('recharge.low', { line: fenToYuan(LOW_BALANCE_FEN) })
            }
          />
        )}
        {view && view.methods.length === 0 ? (
          <Empty
            className="charge-no-methods"
            style={{ marginTop: 24 }}
            description={t('recharge.noMethods')}
          />
        ) : (
          view && (
            <Form<ChargeForm>
              form={form}
              layout="vertical"
              style={{ maxWidth: 520, marginTop: 24 }}
              initialValues={{ amount: '', method: view.methods[0] }}
              onFinish={submit}
            >
              <Form.Item
                name="amount"
                label={t('recharge.amount')}
                extra={t('recharge.amountHint', { min: fenToYuan(view.minFen) })}
                rules={[zodRule(rechargeInputSchema.shape.amount)]}
              >
                <Input
                  prefix="¥"
                  suffix={t('recharge.yuan')}
                  inputMode="decimal"
                  data-testid="charge-amount"
                />
              </Form.Item>
              <Space wrap style={{ marginTop: -8, marginBottom: 16 }}>
                {QUICK_AMOUNTS.map((quick) => (
                  <Button key={quick} size="small" onClick={() => form.setFieldsValue({ amount: quick })}>
                    ¥{quick}
                  </Button>
                ))}
              </Space>
              <Form.Item
                name="method"
                label={t('recharge.method')}
                rules={[zodRule(rechargeInputSchema.shape.method)]}
              >
                <Radio.Group className="charge-methods">
                  {view.methods.map((m) => (
                    <Radio.Button key={m} value={m} className={`charge-method-${m}`}>
                      {m === 'alipay' ? <AlipayCircleOutlined /> : <DollarCircleOutlined />}{' '}
                      {t(`recharge.methods.${m}`)}
                    </Radio.Button>
                  ))}
                </Radio.Group>
              </Form.Item>
              {paypalCharge && paypal && (
                <Typography.Paragraph type="secondary" className="charge-paypal-amount">
                  {t('recharge.paypalCharge', {
                    charge: paypalCharge,
                    rate: fenToYuan(paypal.rateFen),
                    currency: paypal.currency,
                  })}
                </Typography.Paragraph>
              )}
              <Button type="primary" htmlType="submit" loading={saving} data-testid="charge-submit">
                {t('recharge.pay')}
              </Button>
            </Form>
          )
        )}
      </Card>
      <Card title={t('recharge.orders')}>
        <RechargeOrdersTable />
      </Card>
    </Space>
  );
}
