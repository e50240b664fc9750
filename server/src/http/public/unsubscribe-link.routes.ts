import { PUBLIC } from '@herald/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Core } from '../../compose.ts';
import { renderUnsubscribePage, type UnsubscribeView } from '../../core/unsubscribe/unsubscribe-page.html.ts';

const PUBLIC_ROUTE = { access: PUBLIC };
const TOKEN_MAX = 1024;
const BODY_LIMIT = 64 * 1024;

/**
 * The recipient's unsubscribe link, `${publicUrl}/unsubscribe/<token>` (no login):
 *   GET   the account's page (or "done" when already unsubscribed; `?cancel=1` after Cancel);
 *   POST  from that page with an optional `reason`: records it, then the page's jump URL or "done";
 *   POST  `List-Unsubscribe=One-Click` (RFC 8058, sent by mailbox providers): records it, 200.
 * A tampered or unknown token is a 404 page, never an error. Mailbox providers post one-click as
 * urlencoded or multipart form data, so this scope reads both (and anything else as urlencoded).
 * No referrer leaves the page: the token in its URL must not reach the logo's host.
 */
export function unsubscribeLinkRoutes(app: FastifyInstance, core: Core): void {
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'multipart/form-data',
      { parseAs: 'string', bodyLimit: BODY_LIMIT },
      (_request, body, done) => done(null, multipartFields(String(body))),
    );
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    scope.get('/unsubscribe/:token', { config: PUBLIC_ROUTE }, async (request, reply) => {
      const token = tokenOf(request);
      const link = token ? await core.unsubscribe.open(token) : null;
      if (!link) return page(reply, 404, { kind: 'notFound' });
      const { design, maskedEmail: email } = link;
      if (link.unsubscribed) return page(reply, 200, { kind: 'done', design, email });
      if ((request.query as Record<string, unknown>).cancel !== undefined)
        return page(reply, 200, { kind: 'cancelled', design });
      const action = `/unsubscribe/${encodeURIComponent(token as string)}`;
      return page(reply, 200, { kind: 'form', design, email, action, cancelHref: `${action}?cancel=1` });
    });

    scope.post(
      '/unsubscribe/:token',
      { config: PUBLIC_ROUTE, bodyLimit: BODY_LIMIT },
      async (request, reply) => {
        const body = (request.body ?? {}) as Record<string, unknown>;
        const oneClick = body['List-Unsubscribe'] === 'One-Click';
        const token = tokenOf(request);
        const link = token
          ? await core.unsubscribe.unsubscribe(token, {
              reason: typeof body.reason === 'string' ? body.reason : undefined,
              ip: request.ip,
              userAgent: request.headers['user-agent'],
            })
          : null;
        if (!link) return page(reply, 404, { kind: 'notFound' });
        if (oneClick) return reply.status(200).type('text/plain; charset=utf-8').send('unsubscribed\n');
        if (link.design.jumpUrl) return reply.redirect(link.design.jumpUrl, 303);
        return page(reply, 200, { kind: 'done', design: link.design, email: link.maskedEmail });
      },
    );
  });
}

function tokenOf(request: FastifyRequest): string | null {
  const { token } = request.params as { token?: string };
  return token && token.length <= TOKEN_MAX ? token : null;
}

function page(reply: FastifyReply, status: number, view: UnsubscribeView) {
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; img-src http: https:; form-action 'self' http: https:; base-uri 'none'; frame-ancestors 'none'",
    )
    .type('text/html; charset=utf-8')
    .send(renderUnsubscribePage(view));
}

/** The simple fields of a multipart/form-data body (RFC 8058 allows it for the one-click POST). */
function multipartFields(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of body.matchAll(/name="([^"]+)"\r?\n(?:[^\r\n]+\r?\n)*\r?\n([^\r\n]*)/g)) {
    fields[match[1] as string] = match[2] as string;
  }
  return fields;
}
