import fs from 'node:fs';
import path from 'node:path';
import { AppError, type Lang, PUBLIC } from '@herald/shared';
import { guideSamples } from '@herald/shared/samples/guide-samples';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../../compose.ts';
import { integrationView } from '../../routes/integration.routes.ts';
import { GUIDE_TOPICS, type GuideTopicSlug } from './guides-content.ts';
import { indexPage, topicPage } from './guides-page.ts';

/**
 * The guides beside the API reference: /docs/guides/ (the index) and /docs/guides/<topic>, public,
 * in the caller's language (`?lang=`, else the `language` cookie, as /docs/api/). Their samples
 * carry this deployment's API base and SMTP host and port (the integration page's facts), and
 * placeholders for everything of an account.
 */
const ASSETS: Record<string, string> = {
  'guides.css': 'text/css; charset=utf-8',
  'guides.js': 'text/javascript; charset=utf-8',
};

export function guidesRoutes(app: FastifyInstance, core: Core): void {
  const config = { config: { access: PUBLIC } };
  const view = integrationView(core);
  const samples = guideSamples({
    baseUrl: view.apiBaseUrl,
    smtpHost: view.smtpHost,
    smtpPort: view.smtpPorts[0]?.port ?? core.config.smtp.submissionPort,
  });
  const pages = new Map<string, string>();
  const html = (key: string, lang: Lang, render: () => string) => {
    const cacheKey = `${lang}:${key}`;
    let page = pages.get(cacheKey);
    if (page === undefined) {
      page = render();
      pages.set(cacheKey, page);
    }
    return page;
  };

  app.get('/docs/guides', config, async (_request, reply) => reply.redirect('/docs/guides/', 301));
  app.get('/docs/guides/', config, async (request, reply) =>
    reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html('', request.lang, () => indexPage(request.lang))),
  );
  for (const [name, type] of Object.entries(ASSETS)) {
    const body = fs.readFileSync(path.join(import.meta.dirname, name));
    app.get(`/docs/guides/${name}`, config, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').type(type).send(body),
    );
  }
  app.get('/docs/guides/:topic', config, async (request, reply) => {
    const { topic } = request.params as { topic: string };
    if (!(GUIDE_TOPICS as readonly string[]).includes(topic)) throw new AppError('COMMON_ROUTE_NOT_FOUND');
    const slug = topic as GuideTopicSlug;
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html(slug, request.lang, () => topicPage(request.lang, slug, samples)));
  });
}
