import { LANGS, type Lang, resolveLang } from '@herald/shared/lang';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { changeLang } from '../stores/i18n.ts';
import styles from './LanguageSwitcher.module.css';

/**
 * Switches between Chinese and English; drops a `lang` URL parameter so it cannot win on reload.
 * Drawn by hand rather than with antd's Segmented, which brings its tooltip machinery into every
 * public page (/login's bundle budget).
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const current = resolveLang(i18n.language);
  const labels: Record<Lang, string> = { 'zh-cn': t('common.langZhCn'), en: t('common.langEn') };

  const select = (lang: Lang) => {
    if (lang === current) return;
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
    <fieldset className={styles.switcher} aria-label={t('common.language')}>
      {LANGS.map((lang) => (
        <button
          key={lang}
          type="button"
          aria-pressed={lang === current}
          className={lang === current ? `${styles.option} ${styles.selected}` : styles.option}
          onClick={() => select(lang)}
        >
          {labels[lang]}
        </button>
      ))}
    </fieldset>
  );
}
