import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { checkRechargeOrder } from '../../api/recharges.api.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { fenToYuan } from '../../components/money.ts';
import { HttpError } from '../../infra/http/http-errors.ts';
import { loadConsoleData } from '../../stores/session-loader.ts';
import { RechargeStatusTag } from './RechargeOrdersTable.tsx';

const CHARGE_PATH = '/accountSetting/financialMangement/charge';
const FOLLOW_MS = 2000;
/** How long the screen keeps asking before it says the confirmation is late. */
const PATIENCE_MS = 120_000;

/**
 * Where Alipay and PayPal send the buyer back (`charge/result?orderNo=`): the order as Herald
 * knows it, asked about at the provider while it is pending (the notify may not have come yet)
 * every two seconds for two minutes. Paid: the amount credited and the new balance in the
 * header; closed or failed: why, and a way to try again; still pending: that the credit will
 * follow by itself once the payment is confirmed.
 */
export default function ChargeResultPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const orderNo = params.get('orderNo') ?? '';
  const [since] = useState(() => Date.now());
  const order = useQuery({
    queryKey: ['recharge', 'result', orderNo],
    queryFn: () => checkRechargeOrder(orderNo),
    enabled: orderNo !== '',
    retry: false,
    refetchInterval: (q) =>
      q.state.data?.status === 'pending' && Date.now() - since < PATIENCE_MS ? FOLLOW_MS : false,
  });
  const status = order.data?.status;

  useEffect(() => {
    if (status === 'paid') loadConsoleData();
  }, [status]);

  const again = (
    <Button type="primary" key="again" onClick={() => navigate(CHARGE_PATH)}>
      {t('recharge.again')}
    </Button>
  );
  if (orderNo === '' || (order.error instanceof HttpError && order.error.status === 404)) {
    return <Result status="404" title={t('recharge.orderMissing')} extra={again} />;
  }
  if (order.isError) return <Result status="warning" title={t('common.loadFailed')} extra={again} />;
  if (!order.data) return <Spin size="large" style={{ display: 'block', margin: '96px auto' }} />;
  const o = order.data;
  const cancelled = params.get('cancelled') === '1';
  const late = o.status === 'pending' && Date.now() - since >= PATIENCE_MS;

  const result =
    o.status === 'paid' ? (
      <Result
        status="success"
        className="charge-result-paid"
        title={t('recharge.paidTitle', { amount: fenToYuan(o.amountFen) })}
        subTitle={t('recharge.paidText')}
        extra={[
          <Button type="primary" key="finance" onClick={() => navigate('/accountSetting/financialMangement')}>
            {t('recharge.toFinance')}
          </Button>,
          <Button key="again" onClick={() => navigate(CHARGE_PATH)}>
            {t('recharge.again')}
          </Button>,
        ]}
      />
    ) : o.status === 'pending' ? (
      <Result
        status="info"
        icon={late ? undefined : <Spin size="large" />}
        className="charge-result-pending"
        title={
          cancelled
            ? t('recharge.cancelledTitle')
            : late
              ? t('recharge.lateTitle')
              : t('recharge.waitingTitle')
        }
        subTitle={cancelled ? t('recharge.cancelledText') : t('recharge.waitingText')}
        extra={[again]}
      />
    ) : (
      <Result
        status="error"
        className="charge-result-ended"
        title={t(o.status === 'failed' ? 'recharge.failedTitle' : 'recharge.closedTitle')}
        subTitle={t(o.status === 'failed' ? 'recharge.failedText' : 'recharge.closedText')}
        extra={[again]}
      />
    );

  return (
    <Card className="charge-result">
      {result}
      <Descriptions bordered size="small" column={1} style={{ maxWidth: 560, margin: '0 auto' }}>
        <Descriptions.Item label={t('recharge.orderNo')}>{o.orderNo}</Descriptions.Item>
        <Descriptions.Item label={t('recharge.amount')}>
          ¥{fenToYuan(o.amountFen)}
          {o.providerCurrency !== 'CNY' && ` (${o.providerCurrency} ${o.providerAmount})`}
        </Descriptions.Item>
        <Descriptions.Item label={t('recharge.method')}>
          {t(`recharge.channels.${o.channel}`)}
        </Descriptions.Item>
        <Descriptions.Item label={t('recharge.status')}>
          <RechargeStatusTag status={o.status} />
        </Descriptions.Item>
        <Descriptions.Item label={t('recharge.createdAt')}>{formatDateTime(o.createdAt)}</Descriptions.Item>
        {o.paidAt && (
          <Descriptions.Item label={t('recharge.paidAt')}>{formatDateTime(o.paidAt)}</Descriptions.Item>
        )}
      </Descriptions>
    </Card>
  );
}
