import { ERRORS, type ErrorCode, formatMessage } from '@herald/shared/errors';
import { Button } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { checkWechatLogin, startWechatLogin } from '../../api/access.api.ts';
import { currentLang } from '../../stores/i18n.ts';
import { AppLink } from './AppLink.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { AuthResult } from './AuthResult.tsx';
import { useFinishLogin } from './after-login.ts';

const POLL_MS = 1500;

type View = { kind: 'starting' } | { kind: 'checking' } | { kind: 'failed'; message: string };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Asks for a QR authorisation and goes to WeChat's QR page. */
function beginWechatLogin(onFailure: (message: string) => void): void {
  startWechatLogin()
    .then((started) => window.location.assign(started.authorizeUrl))
    .catch((error: unknown) => onFailure(messageOf(error)));
}

/**
 * WeChat quick login (console-spec §2 /wxLoginCheck). Opened from /login without a state, it
 * asks the server for a QR authorisation (the server ties its state to this browser in an
 * HttpOnly cookie) and goes to WeChat's QR page. WeChat sends the browser back through the
 * server's callback to here with `state`; the screen then asks checkStat until the login is
 * ready: a session (into the console), a second login step (/loginProtect), or an error.
 * A scanned WeChat that no user has goes to /wxbind instead (the callback sends it there).
 */
export default function WxLoginCheckPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const finishLogin = useFinishLogin();
  const [params] = useSearchParams();
  const state = params.get('state');
  const callbackError = params.get('error');
  const [view, setView] = useState<View>(state ? { kind: 'checking' } : { kind: 'starting' });
  const latest = useRef({ t, navigate, finishLogin });
  latest.current = { t, navigate, finishLogin };

  useEffect(() => {
    const { t, navigate, finishLogin } = latest.current;
    if (callbackError) {
      const message = Object.hasOwn(ERRORS, callbackError)
        ? formatMessage(callbackError as ErrorCode, currentLang())
        : t('auth.wechatFailed');
      setView({ kind: 'failed', message });
      return;
    }
    if (!state) {
      beginWechatLogin((message) => setView({ kind: 'failed', message }));
      return;
    }
    let stopped = false;
    let timer: number | undefined;
    const poll = async () => {
      try {
        const result = await checkWechatLogin(state);
        if (stopped) return;
        if (result.status === 'loggedIn') return void (await finishLogin(null));
        if (result.status === 'verifyRequired') {
          await navigate('/loginProtect', { state: { verifyToken: result.verifyToken, ways: result.ways } });
          return;
        }
        if (result.status === 'needBind') {
          await navigate(`/wxbind?${new URLSearchParams({ state })}`, { replace: true });
          return;
        }
        if (result.status === 'expired') {
          setView({ kind: 'failed', message: t('auth.wechatExpired') });
          return;
        }
        timer = window.setTimeout(() => void poll(), POLL_MS);
      } catch (error) {
        if (!stopped) setView({ kind: 'failed', message: messageOf(error) });
      }
    };
    void poll();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [state, callbackError]);

  const retry = async () => {
    setView({ kind: 'starting' });
    if (state || callbackError) await navigate('/wxLoginCheck', { replace: true });
    else beginWechatLogin((message) => setView({ kind: 'failed', message }));
  };

  const footer = <AppLink to="/login">{t('auth.backToLogin')}</AppLink>;
  return (
    <AuthLayout footer={footer} testId="wechat-login-page">
      {view.kind === 'failed' ? (
        <AuthResult
          kind="failure"
          title={t('auth.wechatFailedTitle')}
          body={view.message}
          testId="wechat-login-failed"
          actions={
            <Button type="primary" onClick={() => void retry()} data-testid="wechat-retry">
              {t('auth.wechatRetry')}
            </Button>
          }
        />
      ) : (
        <AuthResult
          kind="mail"
          title={t('auth.wechatTitle')}
          body={view.kind === 'starting' ? t('auth.wechatStarting') : t('auth.wechatChecking')}
          testId="wechat-login-waiting"
        />
      )}
    </AuthLayout>
  );
}
