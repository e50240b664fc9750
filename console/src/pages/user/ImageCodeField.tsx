import type { ImageCode } from '@herald/shared/schemas/security.schema';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchImageCode } from '../../api/access.api.ts';
import { FormField } from './FormField.tsx';
import styles from './ImageCodeField.module.css';
import { TextInput } from './TextInput.tsx';

export interface ImageCodeAnswer {
  captchaId: string;
  captchaCode: string;
}

interface ImageCodeFieldProps {
  /** The image-code path of the form (console-spec §7), e.g. `/oauth/imageCode`. */
  url: string;
  onChange(answer: ImageCodeAnswer | null): void;
  error?: string | undefined;
}

/**
 * An image code with its input. Each captcha is good for one try, so a form remounts this (new
 * `key`) after a refused submit; clicking the image also fetches a new one.
 */
export function ImageCodeField({ url, onChange, error }: ImageCodeFieldProps) {
  const { t } = useTranslation();
  const [captcha, setCaptcha] = useState<ImageCode | null>(null);
  const [failed, setFailed] = useState(false);
  const [code, setCode] = useState('');
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  const load = useCallback(async () => {
    setFailed(false);
    setCode('');
    onChangeRef.current(null);
    try {
      setCaptcha(await fetchImageCode(url));
    } catch {
      setCaptcha(null);
      setFailed(true);
    }
  }, [url]);

  useEffect(() => {
    void load();
  }, [load]);

  const update = (value: string) => {
    setCode(value);
    onChangeRef.current(
      captcha && value.trim() ? { captchaId: captcha.captchaId, captchaCode: value.trim() } : null,
    );
  };

  return (
    <FormField label={t('auth.imageCode')} htmlFor="captchaCode" error={error} testId="image-code">
      <div className={styles.row}>
        <TextInput
          id="captchaCode"
          value={code}
          maxLength={16}
          autoComplete="off"
          placeholder={t('auth.imageCodePlaceholder')}
          invalid={Boolean(error)}
          onChange={(value) => update(value)}
        />
        <button
          type="button"
          className={styles.image}
          title={t('auth.imageCodeRefresh')}
          aria-label={t('auth.imageCodeRefresh')}
          data-testid="image-code-refresh"
          onClick={() => void load()}
        >
          {captcha ? (
            <img src={captcha.image} alt={t('auth.imageCode')} data-testid="image-code-image" />
          ) : failed ? (
            t('auth.imageCodeLoadFailed')
          ) : (
            t('auth.imageCodeLoading')
          )}
        </button>
      </div>
    </FormField>
  );
}
