import { registerSchema } from '@herald/shared/schemas/account.schema';
import { Button, Checkbox } from 'antd';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type AvailabilityField, checkAvailable, postRegister } from '../../api/access.api.ts';
import { AppLink } from './AppLink.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { FormError, FormField } from './FormField.tsx';
import { type ImageCodeAnswer, ImageCodeField } from './ImageCodeField.tsx';
import { SliderCaptcha } from './SliderCaptcha.tsx';
import { TextInput } from './TextInput.tsx';
import { useSchemaForm } from './use-schema-form.ts';

type TextField = 'userName' | 'email' | 'phone' | 'password' | 'confirmPassword';
type Availability = 'checking' | 'available';

const INITIAL = { userName: '', email: '', phone: '', password: '', confirmPassword: '', agreement: false };

/**
 * Sign-up (console-spec §2 /register): the fields and rules of the shared registerSchema, the
 * user name, email and phone checked for availability when a field is left, the agreement, an
 * image code and the slider. Success leads to /activate, which says to check the mailbox.
 */
export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useSchemaForm(registerSchema, INITIAL);
  const [availability, setAvailability] = useState<Partial<Record<AvailabilityField, Availability>>>({});
  const [sliderToken, setSliderToken] = useState<string | null>(null);
  const [sliderKey, setSliderKey] = useState(0);
  const [captcha, setCaptcha] = useState<ImageCodeAnswer | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);
  const [submitting, setSubmitting] = useState(false);

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

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = await form.validate();
    if (!input) return;
    if (!captcha) return form.setError('captchaCode', t('auth.imageCodeRequired'));
    if (!sliderToken) return form.setError('slider', t('auth.sliderRequired'));
    setSubmitting(true);
    form.setError('form', undefined);
    try {
      await postRegister({ ...input, ...captcha, sliderToken });
      await navigate('/activate', {
        state: { userName: input.userName, email: input.email, registered: true },
      });
    } catch (error) {
      setSubmitting(false);
      setSliderKey((key) => key + 1);
      setCaptchaKey((key) => key + 1);
      const code = (error as { code?: string }).code;
      if (code === 'CAPTCHA_INVALID' || code === 'CAPTCHA_REQUIRED') {
        return form.setError('captchaCode', (error as Error).message);
      }
      form.showServerError(error);
    }
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
        {textField('password', t('auth.password'), t('auth.newPasswordPlaceholder'), 'new-password')}
        {textField(
          'confirmPassword',
          t('auth.confirmPassword'),
          t('auth.confirmPasswordPlaceholder'),
          'new-password',
        )}
        <ImageCodeField
          key={captchaKey}
          url="/access/register/imageCode"
          error={form.errorOf('captchaCode')}
          onChange={(answer) => {
            setCaptcha(answer);
            if (answer) form.setError('captchaCode', undefined);
          }}
        />
        <FormField label={t('auth.slider')} error={form.errorOf('slider')}>
          <SliderCaptcha
            key={sliderKey}
            onChange={(token) => {
              setSliderToken(token);
              if (token) form.setError('slider', undefined);
            }}
          />
        </FormField>
        <FormField error={form.errorOf('agreement')} testId="field-agreement">
          <Checkbox
            checked={form.values.agreement}
            onChange={(event) => form.set('agreement', event.target.checked)}
            data-testid="agreement"
          >
            {t('auth.agreementPrefix')}{' '}
            <a href="/docs/agreement" target="_blank" rel="noreferrer">
              {t('auth.agreementLink')}
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
