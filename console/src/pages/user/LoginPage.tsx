import { Button } from 'antd';
import { type FormEvent, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { postLogin } from '../../api/access.api.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { HttpError } from '../../infra/http/http-errors.ts';
import { AppLink } from './AppLink.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { useFinishLogin } from './after-login.ts';
import { CredentialFields } from './CredentialFields.tsx';
import { FormError } from './FormField.tsx';
import { HumanCheckFields } from './HumanCheckFields.tsx';
import { useHumanCheck } from './use-human-check.ts';
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
  const human = useHumanCheck(form, {
    imageCodeUrl: '/oauth/imageCode',
    imageCode: 'onRequest',
    slider: true,
  });
  const redirect = searchParams.get('redirect');

  useEffect(() => {
    void loadLoginSchema();
  }, []);

  type Sent = {
    input: NonNullable<Awaited<ReturnType<typeof form.validate>>>;
    answers: NonNullable<ReturnType<typeof human.answers>>;
  };
  const { submit: send, saving: submitting } = useFormSave(
    async ({ input, answers }: Sent) => {
      form.setError('form', undefined);
      const result = await postLogin({ ...input, ...answers });
      if ('verifyRequired' in result) {
        await navigate('/loginProtect', {
          state: { verifyToken: result.verifyToken, ways: result.ways, redirect },
        });
        return;
      }
      await finishLogin(redirect);
    },
    async (error, { input }) => {
      human.startOver();
      if (!(error instanceof HttpError)) return form.showServerError(error);
      if (error.status === 428) {
        await navigate('/activate', { state: { userName: input.username } });
        return;
      }
      if (!human.handleError(error)) form.showServerError(error);
    },
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = await form.validate();
    if (!input) return;
    const answers = human.answers();
    if (!answers) return;
    send({ input, answers });
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
        <CredentialFields form={form} />
        <HumanCheckFields check={human.fields} errorOf={form.errorOf} />
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
        <div style={{ marginTop: 12, display: 'flex', justifyContent: 'space-between' }}>
          <AppLink to="/wxLoginCheck" testId="wechat-login-link">
            {t('auth.wechatLogin')}
          </AppLink>
          <AppLink to="/reset" testId="forgot-link">
            {t('auth.forgotPassword')}
          </AppLink>
        </div>
      </form>
    </AuthLayout>
  );
}
