import { loginSchema } from '@herald/shared/schemas/account.schema';
import { Button } from 'antd';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { postWechatBind } from '../../api/access.api.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { AppLink } from './AppLink.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { useFinishLogin } from './after-login.ts';
import { CredentialFields } from './CredentialFields.tsx';
import { FormError } from './FormField.tsx';
import { HumanCheckFields } from './HumanCheckFields.tsx';
import { useHumanCheck } from './use-human-check.ts';
import { useSchemaForm } from './use-schema-form.ts';

/**
 * /wxbind: a WeChat was scanned that no Herald user has yet. Logging in here with a user name (or
 * email), password and image code binds that WeChat to the user, so the next scan logs straight
 * in; the login then goes on as a password login would (a protected account to /loginProtect).
 */
export default function WxBindPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const finishLogin = useFinishLogin();
  const state = useSearchParams()[0].get('state') ?? '';
  const form = useSchemaForm(loginSchema, { username: '', password: '' });
  const human = useHumanCheck(form, {
    imageCodeUrl: '/access/wechat/beforeLoginBind/imageCode',
    imageCode: 'always',
    slider: false,
  });

  type Sent = {
    input: NonNullable<Awaited<ReturnType<typeof form.validate>>>;
    answers: NonNullable<ReturnType<typeof human.answers>>;
  };
  const { submit: send, saving: submitting } = useFormSave(
    async ({ input, answers }: Sent) => {
      form.setError('form', undefined);
      const result = await postWechatBind({ state, ...input, ...answers });
      if ('verifyRequired' in result) {
        await navigate('/loginProtect', { state: { verifyToken: result.verifyToken, ways: result.ways } });
        return;
      }
      await finishLogin(null);
    },
    async (error) => {
      human.startOver();
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

  return (
    <AuthLayout
      title={t('auth.wechatBindTitle')}
      subtitle={t('auth.wechatBindSubtitle')}
      footer={<AppLink to="/login">{t('auth.backToLogin')}</AppLink>}
      testId="wechat-bind-page"
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
          data-testid="wechat-bind-submit"
        >
          {submitting ? t('auth.loggingIn') : t('auth.wechatBindSubmit')}
        </Button>
      </form>
    </AuthLayout>
  );
}
