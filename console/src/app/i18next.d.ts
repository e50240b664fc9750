import type auth from '../locales/zh-cn/auth.json';
import type common from '../locales/zh-cn/common.json';
import type diagnostics from '../locales/zh-cn/diagnostics.json';
import type home from '../locales/zh-cn/home.json';
import type http from '../locales/zh-cn/http.json';
import type members from '../locales/zh-cn/members.json';
import type notFound from '../locales/zh-cn/notFound.json';
import type routes from '../locales/zh-cn/routes.json';
import type security from '../locales/zh-cn/security.json';
import type shell from '../locales/zh-cn/shell.json';

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
        auth: typeof auth;
        common: typeof common;
        diagnostics: typeof diagnostics;
        home: typeof home;
        http: typeof http;
        notFound: typeof notFound;
        routes: typeof routes;
        security: typeof security;
        members: typeof members;
        shell: typeof shell;
      };
    };
  }
}
