import { PUBLIC, SUBSCRIPTION_DISPLAY_MODES, subscribeInputSchema } from '@herald/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { embedScript } from '../../core/subscriptions/subscription-embed.ts';
import { type ConfirmPageView, renderConfirmPage } from '../../core/subscriptions/subscription-pages.html.ts';
import type { RouteRateLimit } from '../plugins/rate-limit.ts';

const PUBLIC_ROUTE = { access: PUBLIC };
const PER_MINUTE = 60_000;
const PAGES: RouteRateLimit = { bucket: 'subscribe.page', limit: 120, windowMs: PER_MINUTE };
const SUBMITS: RouteRateLimit = { bucket: 'subscribe.submit', limit: 10, windowMs: PER_MINUTE };
const CONFIRMS: RouteRateLimit = { bucket: 'subscribe.confirm', limit: 30, windowMs: PER_MINUTE };
const idQuery = z.object({ id: z.string().trim().min(1).max(64) });
/** The sample page /preview shows a subscription in any mode; a customer's snippet names none. */
const modeQuery = z.object({ mode: z.enum(SUBSCRIPTION_DISPLAY_MODES).optional().catch(undefined) });

/**
 * The public side of subscriptions (no login), each rate-limited per client address:
 *   GET  /v3/access/subInvite/page?id=     what the page at /subscriptionInvite shows;
 *   POST /v3/access/subInvite/subscribe    the form (email, name, image code of purpose subInvite);
 *   GET  /subscribe/confirm/<token>        the double opt-in link of the confirmation mail;
 *   GET  /subscribe/embed.js?id=[&mode=]   the snippet's script, for the customer's own site.
 */
export function subscribeRoutes(app: FastifyInstance, core: Core): void {
  app.get(
    '/v3/access/subInvite/page',
    { config: { ...PUBLIC_ROUTE, rateLimit: PAGES } },
    async (request) => ({
      data: await core.subscribe.page(idQuery.parse(request.query ?? {}).id),
    }),
  );

  app.post(
    '/v3/access/subInvite/subscribe',
    { config: { ...PUBLIC_ROUTE, rateLimit: SUBMITS } },
    async (request) => {
      const input = subscribeInputSchema.parse(request.body ?? {});
      return {
        data: await core.subscribe.subscribe(input, {
          ip: request.ip,
          userAgent: String(request.headers['user-agent'] ?? ''),
          lang: request.lang,
        }),
      };
    },
  );

  app.get(
    '/subscribe/confirm/:token',
    { config: { ...PUBLIC_ROUTE, rateLimit: CONFIRMS } },
    async (request, reply) => {
      const { token } = request.params as { token?: string };
      const view =
        token && token.length <= 512 ? await core.subscribe.confirm(token) : { kind: 'invalid' as const };
      return page(reply, view);
    },
  );

  app.get(
    '/subscribe/embed.js',
    { config: { ...PUBLIC_ROUTE, rateLimit: PAGES } },
    async (request, reply) => {
      const parsed = idQuery.safeParse(request.query ?? {});
      const found = parsed.success ? await core.subscribe.page(parsed.data.id).catch(() => null) : null;
      const { mode } = modeQuery.parse(request.query ?? {});
      const view = found && mode ? { ...found, displayMode: mode } : found;
      return reply
        .header('cache-control', 'no-cache')
        .header('cross-origin-resource-policy', 'cross-origin')
        .type('application/javascript; charset=utf-8')
        .send(embedScript(parsed.success ? parsed.data.id : '', view, request.lang));
    },
  );
}

function page(reply: FastifyReply, view: ConfirmPageView) {
  const status =
    view.kind === 'confirmed' ? 200 : view.kind === 'unavailable' ? 410 : view.kind === 'failed' ? 500 : 400;
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; img-src http: https:; base-uri 'none'; frame-ancestors 'none'",
    )
    .type('text/html; charset=utf-8')
    .send(renderConfirmPage(view));
}
