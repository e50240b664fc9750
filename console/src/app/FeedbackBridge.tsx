import { Button, message } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { bindHttpEffects } from '../infra/http/http-effects.ts';
import { bindIdleNotice } from './guard/idle-timer.ts';

const IdleNotice = lazy(() => import('./IdleNotice.tsx'));
let toastCount = 0;

/**
 * Hands the modules outside React what they raise: antd's themed toasts for the HTTP client and
 * the idle notice for the idle timer. The notice's dialog is loaded only when it fires, so the
 * entry chunk carries no modal code.
 */
export function FeedbackBridge() {
  const [toasts, holder] = message.useMessage();
  const [idle, setIdle] = useState(false);

  useEffect(() => {
    bindHttpEffects({
      toast: (level, text, seconds, action) => {
        const key = `toast-${++toastCount}`;
        const content = action ? (
          <span>
            {text}
            <Button
              type="link"
              size="small"
              className="toast-action"
              onClick={() => {
                toasts.destroy(key);
                action.run();
              }}
            >
              {action.label}
            </Button>
          </span>
        ) : (
          text
        );
        void toasts.open({ key, type: level, content, duration: seconds, className: `http-toast-${level}` });
      },
    });
  }, [toasts]);

  useEffect(() => bindIdleNotice(() => setIdle(true)), []);

  return (
    <>
      {holder}
      {idle && (
        <Suspense fallback={null}>
          <IdleNotice />
        </Suspense>
      )}
    </>
  );
}
