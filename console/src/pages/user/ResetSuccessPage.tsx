import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AuthLayout } from './AuthLayout.tsx';
import { AuthResult } from './AuthResult.tsx';

/** The password was reset: log in with the new one. */
export default function ResetSuccessPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <AuthLayout testId="reset-success-page">
      <AuthResult
        kind="success"
        title={t('auth.resetSuccessTitle')}
        body={t('auth.resetSuccessBody')}
        actions={
          <Button type="primary" size="large" onClick={() => void navigate('/login')}>
            {t('auth.loginNow')}
          </Button>
        }
      />
    </AuthLayout>
  );
}
