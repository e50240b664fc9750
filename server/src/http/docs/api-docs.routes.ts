import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import { AppError, LANGS, type Lang, PUBLIC } from '@herald/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Core } from '../../compose.ts';
import { type Apiv2Area, apiv2Actions } from '../apiv2/apiv2.plugin.ts';
import { SMSAPI_ACTIONS } from '../smsapi/smsapi.plugin.ts';
import { openApiDocuments } from './openapi.ts';

/**
 * The API documentation at /docs/api/ (the console sidebar's "API documentation" link): the
 * OpenAPI documents of openapi.ts as JSON, public, at stable URLs (`openapi.zh-cn.json`,
 * `openapi.en.json`, and `openapi.json?lang=`), and a page that renders them with Swagger UI.
 * Swagger UI's files are served from the installed swagger-ui-dist package (no CDN, and its
 * online validator is switched off); only the files the page uses are reachable, so its sample
 * index page, which loads a remote document, is not. The page has no inline script, so Herald's
 * Content-Security-Policy holds here unchanged.
 */
const VIEWER_DIR = path.join(import.meta.dirname, 'viewer');
const SWAGGER_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const SWAGGER_FILES: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};
const VERSION = (
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../../package.json'), 'utf8')) as {
    version: string;
  }
).version;

const PAGE_TEXT: Record<Lang, { title: string; switch: string; guides: string }> = {
  'zh-cn': { title: 'Herald API 文档', switch: '语言', guides: '开发指南' },
  en: { title: 'Herald API reference', switch: 'Language', guides: 'Guides' },
};
const LANG_NAMES: Record<Lang, string> = { 'zh-cn': '中文', en: 'English' };

export function apiDocsRoutes(app: FastifyInstance, core: Core, areas: Apiv2Area[]): void {
  const source = { actions: apiv2Actions(core, areas), smsActions: SMSAPI_ACTIONS, version: VERSION };
  let documents: ReturnType<typeof openApiDocuments> | undefined;
  const documentOf = (lang: Lang) => {
    documents ??= openApiDocuments(source);
    return documents[lang];
  };
  const config = { config: { access: PUBLIC } };

  app.get('/docs/api/openapi.json', config, async (request, reply) =>
    sendJson(reply, documentOf(request.lang)),
  );
  for (const lang of LANGS) {
    app.get(`/docs/api/openapi.${lang}.json`, config, async (_request, reply) =>
      sendJson(reply, documentOf(lang)),
    );
  }

  app.get('/docs/api', config, async (_request, reply) => reply.redirect('/docs/api/', 301));
  app.get('/docs/api/', config, async (request, reply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page(request.lang)),
  );

  const files = new Map<string, { type: string; read: () => Buffer }>([
    ['api-docs.js', { type: 'text/javascript; charset=utf-8', read: () => readViewer('api-docs.js') }],
    ['api-docs.css', { type: 'text/css; charset=utf-8', read: () => readViewer('api-docs.css') }],
    ...Object.entries(SWAGGER_FILES).map(
      ([name, type]) =>
        [`assets/${name}`, { type, read: () => fs.readFileSync(path.join(SWAGGER_DIR, name)) }] as const,
    ),
  ]);
  const cache = new Map<string, { plain: Buffer; gzip: Buffer }>();
  app.get('/docs/api/*', config, async (request, reply) => {
    const name = (request.params as { '*': string })['*'];
    const file = files.get(name);
    if (!file) throw new AppError('COMMON_ROUTE_NOT_FOUND');
    let body = cache.get(name);
    if (!body) {
      const plain = file.read();
      body = { plain, gzip: zlib.gzipSync(plain) };
      cache.set(name, body);
    }
    reply.header('cache-control', 'public, max-age=3600').header('vary', 'accept-encoding').type(file.type);
    if (acceptsGzip(request) && !file.type.startsWith('image/')) {
      return reply.header('content-encoding', 'gzip').send(body.gzip);
    }
    return reply.send(body.plain);
  });
}

function readViewer(name: string): Buffer {
  return fs.readFileSync(path.join(VIEWER_DIR, name));
}

function acceptsGzip(request: FastifyRequest): boolean {
  return /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
}

function sendJson(reply: FastifyReply, document: unknown) {
  return reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(document);
}

function page(lang: Lang): string {
  const text = PAGE_TEXT[lang];
  const links = LANGS.map(
    (l) =>
      `<a href="?lang=${l}" hreflang="${l}"${l === lang ? ' aria-current="page"' : ''}>${LANG_NAMES[l]}</a>`,
  ).join('');
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text.title}</title>
<link rel="icon" type="image/png" href="assets/favicon-32x32.png">
<link rel="stylesheet" href="assets/swagger-ui.css">
<link rel="stylesheet" href="api-docs.css">
</head>
<body>
<header class="herald-docs-bar"><strong>${text.title}</strong><nav aria-label="${text.switch}"><a href="/docs/guides/?lang=${lang}">${text.guides}</a>${links}</nav></header>
<main id="swagger-ui" data-spec="/docs/api/openapi.${lang}.json"></main>
<script src="assets/swagger-ui-bundle.js"></script>
<script src="api-docs.js"></script>
</body>
</html>
`;
}
