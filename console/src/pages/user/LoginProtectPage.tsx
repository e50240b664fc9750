import { SafetyCertificateOutlined } from '@ant-design/icons';
import { loginVerifySchema, type VerifyWayOption } from '@herald/shared/schemas/security-settings.schema';
import { Button } from 'antd';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import {
  ackFirstProtectedLogin,
  fetchLoginVerifyInfo,
  postLoginVerify,
  sendLoginVerifyCode,
  type VerifyWay,
} from '../../api/access.api.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { AppLink } from './AppLink.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { AuthResult } from './AuthResult.tsx';
import { useFinishLogin } from './after-login.ts';
import { FormError, FormField } from './FormField.tsx';
import { TextInput } from './TextInput.tsx';
import { useSchemaForm } from './use-schema-form.ts';
import { WayPicker } from './WayPicker.tsx';

interface ProtectState {
  verifyToken?: string;
  redirect?: string | null;
}

const codeForm = loginVerifySchema.pick({ code: true });
const RESEND_SECONDS = 60;

/**
 * The second step of a protected login (console-spec §2 /loginProtect): pick a way (SMS, email
 * or the authenticator), get a code where one is sent, and enter it. The pending login comes
 * from the password step (in the navigation state, and in an HttpOnly cookie the server set).
 */
export default function LoginProtectPage() {
  const { t } = useTranslation();
  const state = (useLocation().state ?? {}) as ProtectState;
  const finishLogin = useFinishLogin();
  const form = useSchemaForm(codeForm, { code: '' });
  const [ways, setWays] = useState<VerifyWayOption[] | null>(null);
  const [expired, setExpired] = useState(false);
  const [way, setWay] = useState<VerifyWay | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [countdown, setCountdown] = useState(0);
  const [firstNotice, setFirstNotice] = useState(false);

  useEffect(() => {
    fetchLoginVerifyInfo()
      .then((info) => {
        setWays(info.ways);
        setWay(info.ways[0]?.way ?? null);
      })
      .catch(() => setExpired(true));
  }, []);

  useEffect(() => {
    if (countdown <= 0) return;
    const timer = window.setTimeout(() => setCountdown((seconds) => seconds - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [countdown]);

  const target = ways?.find((entry) => entry.way === way)?.target ?? null;

  const send = useFormSave(
    async (chosen: 'sms' | 'email') => {
      form.setError('form', undefined);
      await sendLoginVerifyCode(state.verifyToken, chosen);
      setSentTo(target ?? '');
      setCountdown(RESEND_SECONDS);
    },
    (error) => form.showServerError(error),
  );
  const sendCode = () => {
    if (way !== 'sms' && way !== 'email') return;
    send.submit(way);
  };

  const verify = useFormSave(
    async (input: { way: VerifyWay; code: string }) => {
      form.setError('form', undefined);
      const result = await postLoginVerify({ verifyToken: state.verifyToken, ...input });
      if (result.firstProtectedLogin) {
        setFirstNotice(true);
        return;
      }
      await finishLogin(state.redirect);
    },
    (error) => form.showServerError(error),
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = await form.validate();
    if (!input || !way) return;
    verify.submit({ way, code: input.code });
  };

  // The notice's button finishes the login whether or not the acknowledgement was recorded.
  const acknowledge = useFormSave(
    async () => {
      await ackFirstProtectedLogin().catch(() => {});
      await finishLogin(state.redirect);
    },
    () => {},
  );
  const sending = send.saving;
  const verifying = verify.saving || acknowledge.saving;

  const footer = <AppLink to="/login">{t('auth.backToLogin')}</AppLink>;

  if (expired) {
    return (
      <AuthLayout footer={footer} testId="login-protect-page">
        <AuthResult kind="failure" title={t('auth.protectTitle')} body={t('auth.protectExpired')} />
      </AuthLayout>
    );
  }

  if (firstNotice) {
    return (
      <AuthLayout testId="login-protect-page">
        <AuthResult
          kind="success"
          title={t('auth.firstProtectTitle')}
          body={t('auth.firstProtectBody')}
          testId="first-protect-notice"
          actions={
            <Button type="primary" size="large" loading={verifying} onClick={() => acknowledge.submit()}>
              {t('auth.gotIt')}
            </Button>
          }
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title={
        <>
          <SafetyCertificateOutlined style={{ color: 'var(--herald-primary, #1668dc)', marginRight: 8 }} />
          {t('auth.protectTitle')}
        </>
      }
      subtitle={t('auth.protectSubtitle')}
      footer={footer}
      testId="login-protect-page"
    >
      {ways === null ? (
        <p>{t('auth.imageCodeLoading')}…</p>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <FormField label={t('auth.protectWay')}>
            <WayPicker
              ways={ways}
              value={way}
              onChange={(next) => {
                setWay(next);
                setSentTo(null);
                form.set('code', '');
              }}
            />
          </FormField>
          <FormField
            label={t('auth.verifyCode')}
            htmlFor="code"
            error={form.errorOf('code')}
            note={sentTo !== null ? t('auth.codeSent', { target: sentTo }) : undefined}
          >
            <div style={{ display: 'flex', gap: 8 }}>
              <TextInput
                id="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                placeholder={
                  way === 'google' ? t('auth.googleCodePlaceholder') : t('auth.verifyCodePlaceholder')
                }
                value={form.values.code}
                invalid={Boolean(form.errors.code)}
                onChange={(value) => form.set('code', value)}
              />
              {way !== 'google' && (
                <Button
                  size="large"
                  loading={sending}
                  disabled={countdown > 0}
                  onClick={sendCode}
                  data-testid="send-code"
                >
                  {countdown > 0 ? t('auth.resendIn', { seconds: countdown }) : t('auth.sendCode')}
                </Button>
              )}
            </div>
          </FormField>
          <FormError message={form.errorOf('form')} />
          <Button
            type="primary"
            htmlType="submit"
            size="large"
            block
            loading={verifying}
            disabled={!way}
            data-testid="protect-submit"
          >
            {verifying ? t('auth.verifying') : t('auth.verify')}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
