import { MailOutlined, MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import type { VerifyWay, VerifyWayOption } from '@herald/shared/schemas/security-settings.schema';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './WayPicker.module.css';

const ICONS: Record<VerifyWay, ReactNode> = {
  sms: <MobileOutlined />,
  email: <MailOutlined />,
  google: <SafetyOutlined />,
};

/** The ways a protected login may be confirmed, each with its masked target. */
export function WayPicker({
  ways,
  value,
  onChange,
}: {
  ways: readonly VerifyWayOption[];
  value: VerifyWay | null;
  onChange(way: VerifyWay): void;
}) {
  const { t } = useTranslation();
  const names: Record<VerifyWay, string> = {
    sms: t('auth.waySms'),
    email: t('auth.wayEmail'),
    google: t('auth.wayGoogle'),
  };
  return (
    <div className={styles.ways}>
      {ways.map(({ way, target }) => (
        <button
          key={way}
          type="button"
          aria-pressed={way === value}
          className={way === value ? `${styles.way} ${styles.selected}` : styles.way}
          data-testid={`way-${way}`}
          onClick={() => onChange(way)}
        >
          <span className={styles.icon}>{ICONS[way]}</span>
          <span>
            <span className={styles.name}>{names[way]}</span>
            {target && <span className={styles.target}>{target}</span>}
          </span>
        </button>
      ))}
    </div>
  );
}
