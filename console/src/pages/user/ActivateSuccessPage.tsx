import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AuthLayout } from './AuthLayout.tsx';
import { AuthResult } from './AuthResult.tsx';

/** Where the activation link lands when it worked (the server redirects here with `lang`). */
export default function ActivateSuccessPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <AuthLayout testId="activate-success-page">
      <AuthResult
        kind="success"
        title={t('auth.activateSuccessTitle')}
        body={t('auth.activateSuccessBody')}
        actions={
          <>
            <Button type="primary" size="large" onClick={() => void navigate('/productSelect')}>
              {t('auth.chooseProduct')}
            </Button>
            <Button size="large" onClick={() => void navigate('/login')}>
              {t('auth.loginNow')}
            </Button>
          </>
        }
      />
    </AuthLayout>
  );
}
