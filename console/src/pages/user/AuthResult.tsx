import { CheckCircleFilled, CloseCircleFilled, MailOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import styles from './AuthLayout.module.css';

interface AuthResultProps {
  kind: 'success' | 'failure' | 'mail';
  title: ReactNode;
  body: ReactNode;
  actions?: ReactNode;
  testId?: string;
}

/** The outcome of an account step (activated, reset, mail sent…): an icon, a title, what next. */
export function AuthResult({ kind, title, body, actions, testId }: AuthResultProps) {
  const icon =
    kind === 'success' ? (
      <CheckCircleFilled className={`${styles.resultIcon} ${styles.success}`} />
    ) : kind === 'failure' ? (
      <CloseCircleFilled className={`${styles.resultIcon} ${styles.failure}`} />
    ) : (
      <MailOutlined className={`${styles.resultIcon} ${styles.info}`} />
    );
  return (
    <div className={styles.result} data-testid={testId}>
      {icon}
      <h1 className={styles.title}>{title}</h1>
      <p className={styles.subtitle}>{body}</p>
      {actions && <div className={styles.actions}>{actions}</div>}
    </div>
  );
}
