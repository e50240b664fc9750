import { type Lang, resolveLang } from '@herald/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Lang;
  }
}

/** The caller's language: `lang` query, then the console's `lang` header or cookie, then Accept-Language. */
export function languageOf(request: FastifyRequest): Lang {
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = typeof query?.lang === 'string' ? query.lang : undefined;
  const header = request.headers.lang;
  const fromHeader = typeof header === 'string' ? header : undefined;
  const fromCookie = request.cookies?.language ?? request.cookies?.lang;
  return resolveLang(fromQuery ?? fromHeader ?? fromCookie ?? request.headers['accept-language']);
}

export function registerLanguage(app: FastifyInstance): void {
  app.decorateRequest('lang', 'zh-cn');
  app.addHook('onRequest', async (request) => {
    request.lang = languageOf(request);
  });
}
