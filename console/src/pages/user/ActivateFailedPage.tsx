import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AuthLayout } from './AuthLayout.tsx';
import { AuthResult } from './AuthResult.tsx';

/** Where the activation link lands when it was invalid, used or expired. */
export default function ActivateFailedPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <AuthLayout testId="activate-failed-page">
      <AuthResult
        kind="failure"
        title={t('auth.activateFailedTitle')}
        body={t('auth.activateFailedBody')}
        actions={
          <>
            <Button type="primary" size="large" onClick={() => void navigate('/activate')}>
              {t('auth.resend')}
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
