import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AuthLayout } from './AuthLayout.tsx';
import { AuthResult } from './AuthResult.tsx';

/** The reset link was invalid, already used or expired: ask for a new one. */
export default function ResetFailedPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <AuthLayout testId="reset-failed-page">
      <AuthResult
        kind="failure"
        title={t('auth.resetFailedTitle')}
        body={t('auth.resetFailedBody')}
        actions={
          <>
            <Button type="primary" size="large" onClick={() => void navigate('/reset')}>
              {t('auth.requestAgain')}
            </Button>
            <Button size="large" onClick={() => void navigate('/login')}>
              {t('auth.backToLogin')}
            </Button>
          </>
        }
      />
    </AuthLayout>
  );
}
