import { PERMISSIONS } from '@herald/shared/permissions';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Skeleton, Space, Statistic, Typography } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type BalancePoint, fetchBalanceHistory } from '../../api/recharges.api.ts';
import { Can } from '../../components/Can.tsx';
import { EChart } from '../../components/charts/EChart.tsx';
import { fenToYuan } from '../../components/money.ts';
import { useSessionStore } from '../../stores/session.store.ts';
import { loadConsoleData } from '../../stores/session-loader.ts';
import { RechargeOrdersTable } from './RechargeOrdersTable.tsx';

/**
 * Finance (console-spec §2 /accountSetting/financialMangement): the balance with the way to top
 * up, a chart of the balance at the end of each of the last 30 days (Beijing time), and the
 * account's recharge orders.
 */
export default function FinancePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const balance = useSessionStore((state) => state.userBalance);
  const history = useQuery({ queryKey: ['recharge', 'balanceHistory'], queryFn: fetchBalanceHistory });
  const option = useMemo(() => (history.data ? balanceOption(history.data) : null), [history.data]);

  useEffect(() => {
    loadConsoleData();
  }, []);

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} className="finance-page">
      <Card>
        <Flex justify="space-between" align="center" wrap gap={8}>
          <Statistic
            title={t('recharge.balance')}
            prefix="¥"
            value={balance ? fenToYuan(balance.balance) : '--'}
            className="finance-balance"
          />
          <Can code={PERMISSIONS.FINANCE} level="full">
            <Button type="primary" onClick={() => navigate('/accountSetting/financialMangement/charge')}>
              {t('recharge.topUp')}
            </Button>
          </Can>
        </Flex>
      </Card>
      <Card title={t('recharge.historyTitle')}>
        {history.isError ? (
          <Typography.Text type="secondary">{t('common.loadFailed')}</Typography.Text>
        ) : option ? (
          <EChart option={option} height={280} ariaLabel={t('recharge.historyTitle')} />
        ) : (
          <Skeleton active />
        )}
      </Card>
      <Card title={t('recharge.orders')}>
        <RechargeOrdersTable />
      </Card>
    </Space>
  );
}

function balanceOption(points: BalancePoint[]) {
  return {
    grid: { left: 56, right: 16, top: 16, bottom: 32 },
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => `¥${Number(v).toFixed(2)}` },
    xAxis: { type: 'category', data: points.map((p) => p.day.slice(5)), boundaryGap: false },
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => `¥${v}` } },
    series: [
      {
        type: 'line',
        areaStyle: { opacity: 0.15 },
        data: points.map((p) => p.balanceFen / 100),
      },
    ],
  };
}
