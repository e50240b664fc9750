import { DEFAULT_LANG, LANGS, type Lang, resolveLang } from '@herald/shared/lang';
import i18next, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { useSessionStore } from '../stores/session.store.ts';
import { COOKIE, writeCookie } from './storage/cookies.ts';
import { LOCAL_KEY, readLocal, writeLocal } from './storage/local-store.ts';

/**
 * Translations are bundled, one JSON file per area and language (locales/<lang>/<area>.json),
 * and mounted under the area name in a single namespace, so `home.json`'s `login` is
 * `t('home.login')`. The language comes from the URL's `lang` parameter, else the stored choice,
 * else zh-cn (console-spec §4 step 7); a language named in the URL is remembered, in local storage
 * and in the `language` cookie (which the server also reads).
 */

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
  return readLocal(LOCAL_KEY.language);
}

function storeLang(lang: Lang): void {
  writeLocal(LOCAL_KEY.language, lang);
  writeCookie(COOKIE.language, lang, { days: 365 });
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
  const lang = resolveLang(lng);
  document.documentElement.lang = lang === 'en' ? 'en' : 'zh-CN';
  useSessionStore.getState().patch({ lang });
});

const initialLang = detectLang();
// The server reads the `language` cookie too; keep it in step from the first request on.
writeCookie(COOKIE.language, initialLang, { days: 365 });

void i18next.use(initReactI18next).init({
  resources: bundleResources(),
  lng: initialLang,
  fallbackLng: DEFAULT_LANG,
  supportedLngs: [...LANGS],
  lowerCaseLng: true,
  load: 'currentOnly',
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

export { i18next };
