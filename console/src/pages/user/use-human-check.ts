import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChallengeAnswers } from '../../api/access.api.ts';
import type { ImageCodeAnswer } from './ImageCodeField.tsx';

/**
 * The human checks of a public form (login, sign-up, forgotten password, activation mail): an
 * image code and the slider, each good for one try. A form says which it carries; `answers()`
 * gives them for the request (or marks the missing one and gives null), `startOver()` fetches new
 * ones after a refusal, and `handleError()` puts a refused image code on its field. Where the
 * image code shows only once the server asks for it (login), it appears on CAPTCHA_REQUIRED.
 */
export interface HumanCheckOptions {
  /** The image-code path of the form (console-spec §7), e.g. `/oauth/imageCode`. */
  imageCodeUrl: string;
  /** `always`, or only once the server asked for it (`onRequest`). */
  imageCode: 'always' | 'onRequest';
  slider: boolean;
}

interface FormErrors {
  setError(field: string, message: string | undefined): void;
}

export function useHumanCheck(form: FormErrors, options: HumanCheckOptions) {
  const { t } = useTranslation();
  const [needCaptcha, setNeedCaptcha] = useState(options.imageCode === 'always');
  const [captcha, setCaptcha] = useState<ImageCodeAnswer | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);
  const [sliderToken, setSliderToken] = useState<string | null>(null);
  const [sliderKey, setSliderKey] = useState(0);

  const answers = (): ChallengeAnswers | null => {
    if (needCaptcha && !captcha) {
      form.setError('captchaCode', t('auth.imageCodeRequired'));
      return null;
    }
    if (options.slider && !sliderToken) {
      form.setError('slider', t('auth.sliderRequired'));
      return null;
    }
    return { ...(options.slider && sliderToken ? { sliderToken } : {}), ...(needCaptcha ? captcha : {}) };
  };

  const startOver = () => {
    setSliderKey((key) => key + 1);
    setCaptchaKey((key) => key + 1);
  };

  /** True when the refusal was about the image code (now shown on its field). */
  const handleError = (error: unknown): boolean => {
    const code = (error as { code?: string } | null)?.code;
    if (code !== 'CAPTCHA_REQUIRED' && code !== 'CAPTCHA_INVALID') return false;
    setNeedCaptcha(true);
    form.setError('captchaCode', error instanceof Error ? error.message : String(error));
    return true;
  };

  return {
    answers,
    startOver,
    handleError,
    fields: {
      imageCodeUrl: options.imageCodeUrl,
      showImageCode: needCaptcha,
      showSlider: options.slider,
      captchaKey,
      sliderKey,
      onImageCode(answer: ImageCodeAnswer | null) {
        setCaptcha(answer);
        if (answer) form.setError('captchaCode', undefined);
      },
      onSlider(token: string | null) {
        setSliderToken(token);
        if (token) form.setError('slider', undefined);
      },
    },
  };
}

export type HumanCheckFieldsState = ReturnType<typeof useHumanCheck>['fields'];
