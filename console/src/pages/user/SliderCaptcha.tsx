import { CheckOutlined, CloseOutlined, DoubleRightOutlined } from '@ant-design/icons';
import { type PointerEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSlider, type SliderChallenge, verifySlider } from '../../api/access.api.ts';
import styles from './SliderCaptcha.module.css';

type Status = 'loading' | 'error' | 'ready' | 'dragging' | 'checking' | 'passed' | 'failed';

interface SliderCaptchaProps {
  /** The pass token once the piece sits in the notch; null while there is none. */
  onChange(passToken: string | null): void;
}

const RETRY_AFTER_FAIL_MS = 900;

/**
 * The slider challenge of login and sign-up (console-spec §5). The server keeps the notch's x;
 * the browser shows the picture and moves the piece with the handle (pointer events: mouse, pen
 * and touch alike), then reports where it was dropped and how long the drag took. A good drop
 * earns a one-time pass token the form sends; a miss loads a fresh challenge. Remount (change
 * the `key`) after the pass token was spent.
 */
export function SliderCaptcha({ onChange }: SliderCaptchaProps) {
  const { t } = useTranslation();
  const [challenge, setChallenge] = useState<SliderChallenge | null>(null);
  const [status, setStatus] = useState<Status>('loading');
  const [offset, setOffset] = useState(0);
  const drag = useRef<{ startX: number; startedAt: number; pointerId: number } | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  const load = useCallback(async () => {
    setStatus('loading');
    setOffset(0);
    onChangeRef.current(null);
    try {
      setChallenge(await fetchSlider());
      setStatus('ready');
    } catch {
      setStatus('error');
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const maxOffset = challenge ? challenge.width - challenge.pieceWidth : 0;

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (status !== 'ready') return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startX: event.clientX, startedAt: performance.now(), pointerId: event.pointerId };
    setStatus('dragging');
  };

  const onPointerMove = (event: PointerEvent<HTMLButtonElement>) => {
    if (!drag.current || drag.current.pointerId !== event.pointerId) return;
    setOffset(Math.min(maxOffset, Math.max(0, event.clientX - drag.current.startX)));
  };

  const onPointerUp = async (event: PointerEvent<HTMLButtonElement>) => {
    const started = drag.current;
    if (!started || started.pointerId !== event.pointerId || !challenge) return;
    drag.current = null;
    const x = Math.round(Math.min(maxOffset, Math.max(0, event.clientX - started.startX)));
    const durationMs = Math.round(performance.now() - started.startedAt);
    setOffset(x);
    setStatus('checking');
    try {
      onChangeRef.current(await verifySlider(challenge.challengeId, x, durationMs));
      setStatus('passed');
    } catch {
      setStatus('failed');
      window.setTimeout(() => void load(), RETRY_AFTER_FAIL_MS);
    }
  };

  const label =
    status === 'passed'
      ? t('auth.sliderPassed')
      : status === 'failed'
        ? t('auth.sliderFailed')
        : status === 'checking'
          ? t('auth.sliderChecking')
          : offset === 0
            ? t('auth.sliderHint')
            : '';

  const width = challenge?.width ?? 300;
  const height = challenge?.height ?? 150;
  const className = [
    styles.slider,
    status === 'passed' && styles.passed,
    status === 'failed' && styles.failed,
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div
      className={className}
      style={{ width }}
      data-testid="slider-captcha"
      data-status={status}
      data-challenge={challenge?.challengeId}
    >
      <div className={styles.picture} style={{ width, height }}>
        {challenge && status !== 'loading' && status !== 'error' ? (
          <>
            <img src={challenge.background} width={challenge.width} height={challenge.height} alt="" />
            <img
              className={styles.piece}
              src={challenge.piece}
              width={challenge.pieceWidth}
              height={challenge.pieceHeight}
              style={{ top: challenge.pieceY, transform: `translateX(${offset}px)` }}
              alt=""
            />
            {status !== 'passed' && (
              <button type="button" className={styles.refresh} onClick={() => void load()}>
                {t('auth.sliderRefresh')}
              </button>
            )}
          </>
        ) : (
          <div className={styles.placeholder} style={{ width, height }}>
            {status === 'error' ? t('auth.sliderLoadFailed') : t('auth.sliderLoading')}
            {status === 'error' && (
              <button
                type="button"
                className={styles.refresh}
                style={{ position: 'static' }}
                onClick={() => void load()}
              >
                {t('auth.sliderRetry')}
              </button>
            )}
          </div>
        )}
      </div>
      <div className={styles.track}>
        <div className={styles.fill} style={{ width: offset + (challenge?.pieceWidth ?? 40) / 2 }} />
        <span className={styles.label}>{label}</span>
        <button
          type="button"
          className={styles.handle}
          style={{ width: challenge?.pieceWidth ?? 40, transform: `translateX(${offset}px)` }}
          aria-label={t('auth.sliderHint')}
          data-testid="slider-handle"
          disabled={status !== 'ready' && status !== 'dragging'}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={(event) => void onPointerUp(event)}
          onPointerCancel={() => {
            drag.current = null;
            setOffset(0);
            setStatus('ready');
          }}
        >
          {status === 'passed' ? (
            <CheckOutlined />
          ) : status === 'failed' ? (
            <CloseOutlined />
          ) : (
            <DoubleRightOutlined />
          )}
        </button>
      </div>
    </div>
  );
}
