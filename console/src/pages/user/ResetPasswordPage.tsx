import { resetPasswordSchema } from '@herald/shared/schemas/account.schema';
import { Button } from 'antd';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { postResetPassword } from '../../api/access.api.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { HttpError } from '../../infra/http/http-errors.ts';
import { AppLink } from './AppLink.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { FormError, FormField } from './FormField.tsx';
import { TextInput } from './TextInput.tsx';
import { useSchemaForm } from './use-schema-form.ts';

/** The reset link's screen (/resetPassword?token=…): a new password twice, then /resetSuccess. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = useSearchParams()[0].get('token') ?? '';
  const form = useSchemaForm(resetPasswordSchema, { token, password: '', confirmPassword: '' });
  const { submit: save, saving } = useFormSave(
    async (input: Parameters<typeof postResetPassword>[0]) => {
      form.setError('form', undefined);
      await postResetPassword(input);
      await navigate('/resetSuccess', { replace: true });
    },
    async (error) => {
      if (error instanceof HttpError && error.status === 410) {
        await navigate('/resetFailed', { replace: true });
        return;
      }
      form.showServerError(error);
    },
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = await form.validate({ token });
    if (input) save(input);
  };

  const footer = <AppLink to="/login">{t('auth.backToLogin')}</AppLink>;
  return (
    <AuthLayout
      title={t('auth.resetPasswordTitle')}
      subtitle={t('auth.resetPasswordSubtitle')}
      footer={footer}
      testId="reset-password-page"
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        {!token && <FormError message={t('auth.resetLinkMissing')} />}
        <FormField label={t('auth.newPassword')} htmlFor="password" error={form.errorOf('password')}>
          <TextInput
            password
            id="password"
            autoComplete="new-password"
            placeholder={t('auth.newPasswordPlaceholder')}
            value={form.values.password}
            invalid={Boolean(form.errors.password)}
            onChange={(value) => form.set('password', value)}
          />
        </FormField>
        <FormField
          label={t('auth.confirmPassword')}
          htmlFor="confirmPassword"
          error={form.errorOf('confirmPassword')}
        >
          <TextInput
            password
            id="confirmPassword"
            autoComplete="new-password"
            placeholder={t('auth.confirmPasswordPlaceholder')}
            value={form.values.confirmPassword}
            invalid={Boolean(form.errors.confirmPassword)}
            onChange={(value) => form.set('confirmPassword', value)}
          />
        </FormField>
        <FormError message={form.errorOf('form') ?? form.errorOf('token')} />
        <Button
          type="primary"
          htmlType="submit"
          size="large"
          block
          loading={saving}
          disabled={!token}
          data-testid="reset-password-submit"
        >
          {saving ? t('auth.saving') : t('auth.saveNewPassword')}
        </Button>
      </form>
    </AuthLayout>
  );
}
