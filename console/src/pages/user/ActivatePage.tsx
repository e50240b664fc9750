import { ACTIVATION_VALID_DAYS } from '@herald/shared/limits';
import { resendActivationSchema } from '@herald/shared/schemas/account.schema';
import { Button } from 'antd';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { postResendActivation } from '../../api/access.api.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { AppLink } from './AppLink.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { AuthResult } from './AuthResult.tsx';
import { FormError, FormField } from './FormField.tsx';
import { HumanCheckFields } from './HumanCheckFields.tsx';
import { TextInput } from './TextInput.tsx';
import { useHumanCheck } from './use-human-check.ts';
import { useSchemaForm } from './use-schema-form.ts';

interface ActivateState {
  userName?: string;
  email?: string;
  /** Arrived straight from a successful sign-up: the mail was just sent. */
  registered?: boolean;
}

/**
 * /activate: after sign-up, "check your mailbox"; after a login of an inactive account (428),
 * "Account is not active, please activate first". Either way the activation mail can be sent
 * again, with an image code.
 */
export default function ActivatePage() {
  const { t } = useTranslation();
  const state = (useLocation().state ?? {}) as ActivateState;
  const form = useSchemaForm(resendActivationSchema, { userName: state.userName ?? '' });
  const human = useHumanCheck(form, {
    imageCodeUrl: '/access/register/resendRegMail/imageCode',
    imageCode: 'always',
    slider: false,
  });
  const [sent, setSent] = useState(false);
  const save = useFormSave(
    async (input: Parameters<typeof postResendActivation>[0]) => {
      setSent(false);
      form.setError('form', undefined);
      await postResendActivation(input);
      setSent(true);
      human.startOver();
    },
    (error) => {
      if (!human.handleError(error)) form.showServerError(error);
      human.startOver();
    },
  );
  const sending = save.saving;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = await form.validate();
    if (!input) return;
    const answers = human.answers();
    if (!answers) return;
    save.submit({ userName: input.userName, ...answers });
  };

  const headline =
    state.registered && state.email ? (
      <AuthResult
        kind="mail"
        title={t('auth.activateSentTitle')}
        body={t('auth.activateSentBody', { email: state.email, days: ACTIVATION_VALID_DAYS })}
        testId="activate-sent"
      />
    ) : (
      <AuthResult
        kind="mail"
        title={t('auth.activateTitle')}
        body={t('auth.activateBody')}
        testId="activate-needed"
      />
    );

  return (
    <AuthLayout footer={<AppLink to="/login">{t('auth.backToLogin')}</AppLink>} testId="activate-page">
      {headline}
      <form onSubmit={(event) => void submit(event)} noValidate style={{ marginTop: 8 }}>
        <h2 style={{ fontSize: 16, margin: '0 0 4px' }}>{t('auth.resendTitle')}</h2>
        <p style={{ margin: '0 0 16px', color: 'rgba(0,0,0,0.55)', fontSize: 13 }}>{t('auth.resendHint')}</p>
        <FormField label={t('auth.resendUserName')} htmlFor="userName" error={form.errorOf('userName')}>
          <TextInput
            id="userName"
            value={form.values.userName}
            invalid={Boolean(form.errors.userName)}
            onChange={(value) => form.set('userName', value)}
          />
        </FormField>
        <HumanCheckFields check={human.fields} errorOf={form.errorOf} />
        <FormError message={form.errorOf('form')} />
        {sent && (
          <p role="status" data-testid="resend-done" style={{ color: '#16a34a', fontSize: 14 }}>
            {t('auth.resendDone')}
          </p>
        )}
        <Button htmlType="submit" size="large" block loading={sending} data-testid="resend-submit">
          {sending ? t('auth.resending') : t('auth.resend')}
        </Button>
      </form>
    </AuthLayout>
  );
}
