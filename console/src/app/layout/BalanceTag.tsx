import { WalletOutlined } from '@ant-design/icons';
import { PERMISSIONS } from '@herald/shared/permissions';
import { Tooltip } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fenToYuan } from '../../components/money.ts';
import { useCan } from '../../components/use-can.ts';
import { useSessionStore } from '../../stores/session.store.ts';
import { loadConsoleData } from '../../stores/session-loader.ts';
import styles from './BackendLayout.module.css';

/** The account balance in yuan; loads it once if no area's first page has yet. Links to top-up. */
export function BalanceTag() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const balance = useSessionStore((state) => state.userBalance);
  const canCharge = useCan(PERMISSIONS.FINANCE);

  useEffect(() => {
    if (!useSessionStore.getState().userBalance) loadConsoleData();
  }, []);

  return (
    <Tooltip title={canCharge ? t('shell.recharge') : undefined}>
      <button
        type="button"
        className={styles.balance}
        disabled={!canCharge}
        onClick={() => void navigate('/accountSetting/financialMangement/charge')}
        data-testid="balance"
      >
        <WalletOutlined />
        <span className={styles.balanceLabel}>{t('shell.balance')}</span>
        <strong>¥{balance ? fenToYuan(balance.balance) : '--'}</strong>
      </button>
    </Tooltip>
  );
}
