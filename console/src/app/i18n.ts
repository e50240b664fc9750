import { DEFAULT_LANG, LANGS, type Lang, resolveLang } from '@herald/shared';
import i18next, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * Translations are bundled, one JSON file per area and language (locales/<lang>/<area>.json),
 * and mounted under the area name in a single namespace, so `home.json`'s `login` is
 * `t('home.login')`. The language comes from the URL's `lang` parameter, else the stored choice,
 * else zh-cn (console-spec §4 step 7); a language named in the URL is remembered.
 */
const LANG_STORAGE_KEY = 'lang';

const localeFiles = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', {
  eager: true,
  import: 'default',
});

function bundleResources(): Resource {
  const resources: Resource = {};
  for (const [path, content] of Object.entries(localeFiles)) {
    const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!match) continue;
    const [, lang, area] = match as unknown as [string, string, string];
    const translation = (resources[lang]?.translation ?? {}) as Record<string, unknown>;
    translation[area] = content;
    resources[lang] = { translation };
  }
  return resources;
}

function readStoredLang(): string | null {
  try {
    return localStorage.getItem(LANG_STORAGE_KEY);
  } catch {
    return null;
  }
}

function storeLang(lang: Lang): void {
  try {
    localStorage.setItem(LANG_STORAGE_KEY, lang);
  } catch {
    // Storage can be disabled (private mode, policy); the choice then lasts for this page only.
  }
}

function detectLang(): Lang {
  const fromUrl = new URLSearchParams(window.location.search).get('lang');
  if (fromUrl) {
    const lang = resolveLang(fromUrl);
    storeLang(lang);
    return lang;
  }
  return resolveLang(readStoredLang());
}

export function currentLang(): Lang {
  return resolveLang(i18next.language);
}

export async function changeLang(lang: Lang): Promise<void> {
  storeLang(lang);
  await i18next.changeLanguage(lang);
}

i18next.on('languageChanged', (lng) => {
  document.documentElement.lang = resolveLang(lng) === 'en' ? 'en' : 'zh-CN';
});

void i18next.use(initReactI18next).init({
  resources: bundleResources(),
  lng: detectLang(),
  fallbackLng: DEFAULT_LANG,
  supportedLngs: [...LANGS],
  lowerCaseLng: true,
  load: 'currentOnly',
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

export { i18next };
