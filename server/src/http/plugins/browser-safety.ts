import { AppError } from '@herald/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * What every response tells the browser, and which requests a browser may make with the user's
 * cookie. Scripts come only from Herald (no inline script, no eval); styles may be inline (the
 * component library writes them); images from anywhere, since template previews show the
 * customer's own images; nothing may frame Herald. HSTS is sent when the request came over HTTPS
 * (directly, or through a trusted proxy that said so).
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Pages customers embed in their own sites (the subscription snippet's iframe): any site may
 * frame them. They need no login and hold no session, so framing them exposes nothing.
 */
const EMBEDDABLE_PAGES = ['/subscriptionInvite'];
const EMBEDDABLE_CSP = CSP.replace("frame-ancestors 'none'", 'frame-ancestors *');

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Called by programs with their own credentials (API keys, signatures), never with a cookie. */
const MACHINE_PREFIXES = ['/apiv2/'];

export function registerBrowserSafety(app: FastifyInstance, options: { publicUrl: string }): void {
  const publicOrigin = originOf(options.publicUrl);
  app.addHook('onRequest', async (request, reply) => {
    const embeddable = EMBEDDABLE_PAGES.some((page) => (request.url.split('?')[0] ?? '') === page);
    reply.header('content-security-policy', embeddable ? EMBEDDABLE_CSP : CSP);
    reply.header('x-content-type-options', 'nosniff');
    if (!embeddable) reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000');
    if (crossSite(request, publicOrigin)) throw new AppError('COMMON_CROSS_SITE');
  });
}

/**
 * A state-changing request a browser made from another site: Fetch Metadata says so, or the
 * Origin it sent is neither this host nor the public URL. Such a request would carry the user's
 * cookie without the user meaning it (a cross-site form post).
 */
function crossSite(request: FastifyRequest, publicOrigin: string | null): boolean {
  if (!UNSAFE_METHODS.has(request.method)) return false;
  if (MACHINE_PREFIXES.some((prefix) => request.url.startsWith(prefix))) return false;
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = request.headers.origin;
  if (!origin) return false;
  if (origin === 'null') return true;
  if (originOf(origin) === publicOrigin) return false;
  // The console served by this host: compare as URLs, so a default port written or not is the same.
  const host = request.headers.host;
  return !host || originOf(origin) !== originOf(`${request.protocol}://${host}`);
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
