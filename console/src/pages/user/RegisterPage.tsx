import { registerSchema } from '@herald/shared/schemas/account.schema';
import { Button, Checkbox } from 'antd';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  type AvailabilityField,
  checkAvailable,
  fetchRegisterVerificationWay,
  postRegister,
  sendRegisterSmsCode,
} from '../../api/access.api.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { AppLink } from './AppLink.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { FormError, FormField } from './FormField.tsx';
import { HumanCheckFields } from './HumanCheckFields.tsx';
import { TextInput } from './TextInput.tsx';
import { useHumanCheck } from './use-human-check.ts';
import { useSchemaForm } from './use-schema-form.ts';

type TextField = 'userName' | 'email' | 'phone' | 'password' | 'confirmPassword';
type Availability = 'checking' | 'available';

const INITIAL = {
  userName: '',
  email: '',
  phone: '',
  password: '',
  confirmPassword: '',
  smsCode: '',
  agreement: false,
};

/**
 * Sign-up (console-spec §2 /register): the fields and rules of the shared registerSchema, the
 * user name, email and phone checked for availability when a field is left, the agreement, an
 * image code and the slider. When the server proves phones at sign-up (`verification/way`), a
 * code is texted to the phone (one a minute: the button counts down) and goes with the form.
 * Success leads to /activate, which says to check the mailbox.
 */
export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useSchemaForm(registerSchema, INITIAL);
  const [availability, setAvailability] = useState<Partial<Record<AvailabilityField, Availability>>>({});
  const human = useHumanCheck(form, {
    imageCodeUrl: '/access/register/imageCode',
    imageCode: 'always',
    slider: true,
  });
  const [smsRequired, setSmsRequired] = useState(false);
  const [sendingCode, setSendingCode] = useState(false);
  const [codeSent, setCodeSent] = useState(false);
  const [countdown, setCountdown] = useState(0);

  useEffect(() => {
    fetchRegisterVerificationWay()
      .then((way) => setSmsRequired(way.smsCode))
      .catch(() => setSmsRequired(false));
  }, []);

  useEffect(() => {
    if (countdown <= 0) return;
    const timer = window.setTimeout(() => setCountdown((seconds) => seconds - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [countdown]);

  const sendCode = async () => {
    const phone = form.values.phone.trim();
    const rule = registerSchema.shape.phone.safeParse(phone);
    if (!rule.success) return form.setError('phone', rule.error.issues[0]?.message ?? 'required');
    setSendingCode(true);
    form.setError('smsCode', undefined);
    try {
      const sent = await sendRegisterSmsCode(phone);
      setCodeSent(true);
      setCountdown(sent.resendAfterSeconds);
    } catch (error) {
      const code = (error as { code?: string }).code;
      const message = error instanceof Error ? error.message : String(error);
      form.setError(code === 'PHONE_TAKEN' ? 'phone' : 'smsCode', message);
    } finally {
      setSendingCode(false);
    }
  };

  const checkOnBlur = async (field: AvailabilityField) => {
    const value = form.values[field].trim();
    if (!value) return;
    const rule = registerSchema.shape[field].safeParse(value);
    if (!rule.success) return form.setError(field, rule.error.issues[0]?.message);
    setAvailability((previous) => ({ ...previous, [field]: 'checking' }));
    try {
      await checkAvailable(field, value);
      if (form.values[field].trim() === value)
        setAvailability((previous) => ({ ...previous, [field]: 'available' }));
    } catch (error) {
      setAvailability((previous) => ({ ...previous, [field]: undefined }));
      form.setError(field, error instanceof Error ? error.message : String(error));
    }
  };

  type Sent = {
    input: NonNullable<Awaited<ReturnType<typeof form.validate>>>;
    answers: NonNullable<ReturnType<typeof human.answers>>;
  };
  const { submit: send, saving: submitting } = useFormSave(
    async ({ input, answers }: Sent) => {
      form.setError('form', undefined);
      await postRegister({ ...input, smsCode: smsRequired ? input.smsCode : undefined, ...answers });
      await navigate('/activate', {
        state: { userName: input.userName, email: input.email, registered: true },
      });
    },
    async (error) => {
      human.startOver();
      if (human.handleError(error)) return;
      const code = (error as { code?: string }).code;
      if (code === 'VERIFY_CODE_INVALID' || code === 'VERIFY_CODE_ATTEMPTS_EXCEEDED') {
        form.setError('smsCode', (error as Error).message);
        return;
      }
      form.showServerError(error);
    },
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = await form.validate();
    if (!input) return;
    if (smsRequired && !input.smsCode) return form.setError('smsCode', 'smsCodeRequired');
    const answers = human.answers();
    if (!answers) return;
    send({ input, answers });
  };

  const note = (field: AvailabilityField) =>
    availability[field] === 'checking'
      ? t('auth.checking')
      : availability[field] === 'available'
        ? t('auth.available')
        : undefined;

  const textField = (field: TextField, label: string, placeholder: string, autoComplete: string) => {
    const checked = field === 'userName' || field === 'email' || field === 'phone';
    return (
      <FormField
        label={label}
        htmlFor={field}
        error={form.errorOf(field)}
        note={checked ? note(field) : undefined}
        ok={checked && availability[field] === 'available'}
        testId={`field-${field}`}
      >
        <TextInput
          id={field}
          password={field === 'password' || field === 'confirmPassword'}
          autoComplete={autoComplete}
          placeholder={placeholder}
          value={form.values[field]}
          invalid={Boolean(form.errors[field])}
          onChange={(value) => {
            form.set(field, value);
            if (checked) setAvailability((previous) => ({ ...previous, [field]: undefined }));
          }}
          onBlur={checked ? () => void checkOnBlur(field) : undefined}
        />
      </FormField>
    );
  };

  const footer = (
    <>
      {t('auth.haveAccount')}
      <AppLink to="/login">{t('auth.loginNow')}</AppLink>
    </>
  );

  return (
    <AuthLayout
      title={t('auth.registerTitle')}
      subtitle={t('auth.registerSubtitle')}
      footer={footer}
      testId="register-page"
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        {textField('userName', t('auth.userName'), t('auth.userNamePlaceholder'), 'username')}
        {textField('email', t('auth.email'), t('auth.emailPlaceholder'), 'email')}
        {textField('phone', t('auth.phone'), t('auth.phonePlaceholder'), 'tel')}
        {smsRequired && (
          <FormField
            label={t('auth.smsCode')}
            htmlFor="smsCode"
            error={form.errorOf('smsCode')}
            note={codeSent ? t('auth.smsCodeSent') : undefined}
            testId="field-smsCode"
          >
            <div style={{ display: 'flex', gap: 8 }}>
              <TextInput
                id="smsCode"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                placeholder={t('auth.verifyCodePlaceholder')}
                value={form.values.smsCode}
                invalid={Boolean(form.errors.smsCode)}
                onChange={(value) => form.set('smsCode', value)}
              />
              <Button
                size="large"
                loading={sendingCode}
                disabled={countdown > 0}
                onClick={() => void sendCode()}
                data-testid="send-sms-code"
              >
                {countdown > 0 ? t('auth.resendIn', { seconds: countdown }) : t('auth.sendCode')}
              </Button>
            </div>
          </FormField>
        )}
        {textField('password', t('auth.password'), t('auth.newPasswordPlaceholder'), 'new-password')}
        {textField(
          'confirmPassword',
          t('auth.confirmPassword'),
          t('auth.confirmPasswordPlaceholder'),
          'new-password',
        )}
        <HumanCheckFields check={human.fields} errorOf={form.errorOf} />
        <FormField error={form.errorOf('agreement')} testId="field-agreement">
          <Checkbox
            checked={form.values.agreement}
            onChange={(event) => form.set('agreement', event.target.checked)}
            data-testid="agreement"
          >
            {t('auth.agreementPrefix')}{' '}
            <a href="/terms" target="_blank" rel="noreferrer" data-testid="terms-link">
              {t('auth.agreementLink')}
            </a>{' '}
            {t('auth.agreementAnd')}{' '}
            <a href="/privacy" target="_blank" rel="noreferrer" data-testid="privacy-link">
              {t('auth.privacyLink')}
            </a>
          </Checkbox>
        </FormField>
        <FormError message={form.errorOf('form')} />
        <Button
          type="primary"
          htmlType="submit"
          size="large"
          block
          loading={submitting}
          data-testid="register-submit"
        >
          {submitting ? t('auth.registering') : t('auth.register')}
        </Button>
      </form>
    </AuthLayout>
  );
}
