import { MailOutlined } from '@ant-design/icons';
import { forgotPasswordSchema } from '@herald/shared/schemas/account.schema';
import { Button } from 'antd';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { postForgotPassword } from '../../api/access.api.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { AppLink } from './AppLink.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { AuthResult } from './AuthResult.tsx';
import { FormError, FormField } from './FormField.tsx';
import { HumanCheckFields } from './HumanCheckFields.tsx';
import { TextInput } from './TextInput.tsx';
import { useHumanCheck } from './use-human-check.ts';
import { useSchemaForm } from './use-schema-form.ts';

/**
 * "Forgot password" (/reset): the email and an image code. The answer never says whether an
 * account uses the address, so the confirmation is worded the same either way.
 */
export default function ResetPage() {
  const { t } = useTranslation();
  const form = useSchemaForm(forgotPasswordSchema, { email: '' });
  const human = useHumanCheck(form, {
    imageCodeUrl: '/access/password/imageCode',
    imageCode: 'always',
    slider: false,
  });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const save = useFormSave(
    async (input: Parameters<typeof postForgotPassword>[0]) => {
      form.setError('form', undefined);
      await postForgotPassword(input);
      setSentTo(input.email);
    },
    (error) => {
      human.startOver();
      if (!human.handleError(error)) form.showServerError(error);
    },
  );
  const sending = save.saving;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = await form.validate();
    if (!input) return;
    const answers = human.answers();
    if (!answers) return;
    save.submit({ email: input.email, ...answers });
  };

  const footer = <AppLink to="/login">{t('auth.backToLogin')}</AppLink>;

  if (sentTo) {
    return (
      <AuthLayout footer={footer} testId="reset-page">
        <AuthResult
          kind="mail"
          title={t('auth.resetMailSentTitle')}
          body={t('auth.resetMailSentBody', { email: sentTo })}
          testId="reset-mail-sent"
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title={t('auth.resetTitle')}
      subtitle={t('auth.resetSubtitle')}
      footer={footer}
      testId="reset-page"
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <FormField label={t('auth.email')} htmlFor="email" error={form.errorOf('email')}>
          <TextInput
            id="email"
            type="email"
            autoComplete="email"
            prefix={<MailOutlined />}
            value={form.values.email}
            invalid={Boolean(form.errors.email)}
            onChange={(value) => form.set('email', value)}
          />
        </FormField>
        <HumanCheckFields check={human.fields} errorOf={form.errorOf} />
        <FormError message={form.errorOf('form')} />
        <Button
          type="primary"
          htmlType="submit"
          size="large"
          block
          loading={sending}
          data-testid="reset-submit"
        >
          {sending ? t('auth.sending') : t('auth.sendResetMail')}
        </Button>
      </form>
    </AuthLayout>
  );
}
