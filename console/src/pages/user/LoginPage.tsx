import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { postLogin } from '../../api/access.api.ts';
import { HttpError } from '../../app/http/http-errors.ts';
import { AppLink } from './AppLink.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { useFinishLogin } from './after-login.ts';
import { FormError, FormField } from './FormField.tsx';
import { type ImageCodeAnswer, ImageCodeField } from './ImageCodeField.tsx';
import { SliderCaptcha } from './SliderCaptcha.tsx';
import { TextInput } from './TextInput.tsx';
import { useSchemaForm } from './use-schema-form.ts';

/**
 * Login (console-spec §2 /login, §4): user name or email and password, the slider and, once the
 * server asks for it after repeated failures, an image code. Each try spends the slider pass and
 * the image code, so both start over after a refusal. A protected account continues at
 * /loginProtect; an inactive one lands on /activate.
 */
const loadLoginSchema = () =>
  import('@herald/shared/schemas/account.schema').then((module) => module.loginSchema);

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const finishLogin = useFinishLogin();
  const form = useSchemaForm(loadLoginSchema, { username: '', password: '' });
  const [sliderToken, setSliderToken] = useState<string | null>(null);
  const [sliderKey, setSliderKey] = useState(0);
  const [needCaptcha, setNeedCaptcha] = useState(false);
  const [captcha, setCaptcha] = useState<ImageCodeAnswer | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);
  const [submitting, setSubmitting] = useState(false);
  const redirect = searchParams.get('redirect');

  useEffect(() => {
    void loadLoginSchema();
  }, []);

  const startOver = () => {
    setSliderKey((key) => key + 1);
    setCaptchaKey((key) => key + 1);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = await form.validate();
    if (!input) return;
    if (needCaptcha && !captcha) return form.setError('captchaCode', t('auth.imageCodeRequired'));
    if (!sliderToken) return form.setError('slider', t('auth.sliderRequired'));
    setSubmitting(true);
    form.setError('form', undefined);
    try {
      const result = await postLogin({ ...input, sliderToken, ...(needCaptcha ? captcha : {}) });
      if ('verifyRequired' in result) {
        await navigate('/loginProtect', {
          state: { verifyToken: result.verifyToken, ways: result.ways, redirect },
        });
        return;
      }
      await finishLogin(redirect);
    } catch (error) {
      setSubmitting(false);
      startOver();
      if (!(error instanceof HttpError)) return form.showServerError(error);
      if (error.status === 428) {
        await navigate('/activate', { state: { userName: input.username } });
        return;
      }
      if (error.code === 'CAPTCHA_REQUIRED' || error.code === 'CAPTCHA_INVALID') {
        setNeedCaptcha(true);
        return form.setError('captchaCode', error.message);
      }
      form.showServerError(error);
    }
  };

  const footer = (
    <>
      {t('auth.noAccount')}
      <AppLink to="/register" testId="register-link">
        {t('auth.registerNow')}
      </AppLink>
    </>
  );

  return (
    <AuthLayout
      title={t('auth.loginTitle')}
      subtitle={t('auth.loginSubtitle')}
      footer={footer}
      testId="login-page"
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <FormField label={t('auth.userNameOrEmail')} htmlFor="username" error={form.errorOf('username')}>
          <TextInput
            id="username"
            autoComplete="username"
            prefix={<UserOutlined />}
            placeholder={t('auth.userNameOrEmailPlaceholder')}
            value={form.values.username}
            invalid={Boolean(form.errors.username)}
            onChange={(value) => form.set('username', value)}
          />
        </FormField>
        <FormField label={t('auth.password')} htmlFor="password" error={form.errorOf('password')}>
          <TextInput
            password
            id="password"
            autoComplete="current-password"
            prefix={<LockOutlined />}
            placeholder={t('auth.passwordPlaceholder')}
            value={form.values.password}
            invalid={Boolean(form.errors.password)}
            onChange={(value) => form.set('password', value)}
          />
        </FormField>
        {needCaptcha && (
          <ImageCodeField
            key={captchaKey}
            url="/oauth/imageCode"
            error={form.errorOf('captchaCode')}
            onChange={(answer) => {
              setCaptcha(answer);
              if (answer) form.setError('captchaCode', undefined);
            }}
          />
        )}
        <FormField label={t('auth.slider')} error={form.errorOf('slider')}>
          <SliderCaptcha
            key={sliderKey}
            onChange={(token) => {
              setSliderToken(token);
              if (token) form.setError('slider', undefined);
            }}
          />
        </FormField>
        <FormError message={form.errorOf('form')} />
        <Button
          type="primary"
          htmlType="submit"
          size="large"
          block
          loading={submitting}
          data-testid="login-submit"
        >
          {submitting ? t('auth.loggingIn') : t('auth.login')}
        </Button>
        <div style={{ marginTop: 12, textAlign: 'right' }}>
          <AppLink to="/reset" testId="forgot-link">
            {t('auth.forgotPassword')}
          </AppLink>
        </div>
      </form>
    </AuthLayout>
  );
}
