import type common from '../locales/zh-cn/common.json';
import type home from '../locales/zh-cn/home.json';
import type notFound from '../locales/zh-cn/notFound.json';

/**
 * Types every `t()` key against the Chinese files, so a misspelt key or a route title naming a
 * key that does not exist fails the typecheck. A new locale area is one line here; the drift
 * test (e2e/specs/locales.spec.ts) keeps the English files in step with the Chinese ones.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: {
        common: typeof common;
        home: typeof home;
        notFound: typeof notFound;
      };
    };
  }
}
