import { DEFAULT_LANG, LANGS, type Lang, resolveLang } from '@herald/shared/lang';
import i18next, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { COOKIE, writeCookie } from '../infra/storage/cookies.ts';
import { LOCAL_KEY, readLocal, writeLocal } from '../infra/storage/local-store.ts';
import { useSessionStore } from './session.store.ts';

/**
 * Translations are one JSON file per area and language (locales/<lang>/<area>.json), mounted
 * under the area name in a single namespace, so `home.json`'s `login` is `t('home.login')`. The
 * language comes from the URL's `lang` parameter, else the stored choice, else zh-cn (console-spec
 * §4 step 7); a language named in the URL is remembered, in local storage and in the `language`
 * cookie (which the server also reads).
 *
 * The areas that the shell and the public pages (login, sign-up, invitation) use are bundled with
 * the entry; every other area is a lazy chunk, loaded by the route guard before the first screen
 * that needs a login renders, so the login page does not carry the whole console's text. A public
 * page that starts using another area must add it to the eager list below.
 */

const eagerFiles = import.meta.glob<Record<string, unknown>>(
  '../locales/*/{auth,common,diagnostics,home,http,members,notFound,routes,security,shell,subscribe}.json',
  { eager: true, import: 'default' },
);
const lazyFiles = import.meta.glob<Record<string, unknown>>(
  [
    '../locales/*/*.json',
    '!../locales/*/{auth,common,diagnostics,home,http,members,notFound,routes,security,shell,subscribe}.json',
  ],
  { import: 'default' },
);

function localeOf(path: string): { lang: string; area: string } | null {
  const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  return match ? { lang: match[1] as string, area: match[2] as string } : null;
}

function bundleResources(): Resource {
  const resources: Resource = {};
  for (const [path, content] of Object.entries(eagerFiles)) {
    const locale = localeOf(path);
    if (!locale) continue;
    const translation = (resources[locale.lang]?.translation ?? {}) as Record<string, unknown>;
    translation[locale.area] = content;
    resources[locale.lang] = { translation };
  }
  return resources;
}

let lazyLoaded: Promise<void> | null = null;

/** Loads the text of every console area, in both languages (so switching needs no wait); once. */
export function loadConsoleLocales(): Promise<void> {
  lazyLoaded ??= Promise.all(
    Object.entries(lazyFiles).map(async ([path, load]) => {
      const locale = localeOf(path);
      if (!locale) return;
      i18next.addResourceBundle(locale.lang, 'translation', { [locale.area]: await load() }, true, true);
    }),
  ).then(
    () => undefined,
    (error: unknown) => {
      lazyLoaded = null;
      throw error;
    },
  );
  return lazyLoaded;
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
