import { useTranslation } from 'react-i18next';
import { FormField } from './FormField.tsx';
import { ImageCodeField } from './ImageCodeField.tsx';
import { SliderCaptcha } from './SliderCaptcha.tsx';
import type { HumanCheckFieldsState } from './use-human-check.ts';

interface HumanCheckFieldsProps {
  check: HumanCheckFieldsState;
  errorOf(field: string): string | undefined;
}

/** The image code and the slider of a public form, as useHumanCheck asks for them. */
export function HumanCheckFields({ check, errorOf }: HumanCheckFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      {check.showImageCode && (
        <ImageCodeField
          key={check.captchaKey}
          url={check.imageCodeUrl}
          error={errorOf('captchaCode')}
          onChange={check.onImageCode}
        />
      )}
      {check.showSlider && (
        <FormField label={t('auth.slider')} error={errorOf('slider')}>
          <SliderCaptcha key={check.sliderKey} onChange={check.onSlider} />
        </FormField>
      )}
    </>
  );
}
