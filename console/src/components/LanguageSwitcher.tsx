import { type Lang, resolveLang } from '@herald/shared';
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { changeLang } from '../app/i18n.ts';

/** Switches between Chinese and English; drops a `lang` URL parameter so it cannot win on reload. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();

  const select = (lang: Lang) => {
    void changeLang(lang);
    if (searchParams.has('lang')) {
      setSearchParams(
        (params) => {
          params.delete('lang');
          return params;
        },
        { replace: true },
      );
    }
  };

  return (
    <Segmented<Lang>
      aria-label={t('common.language')}
      size="small"
      value={resolveLang(i18n.language)}
      onChange={select}
      options={[
        { value: 'zh-cn', label: t('common.langZhCn') },
        { value: 'en', label: t('common.langEn') },
      ]}
    />
  );
}
