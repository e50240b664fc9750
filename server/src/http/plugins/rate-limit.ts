import { AppError } from '@herald/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimiter } from '../../core/rate-limit/rate-limiter.ts';

export interface RouteRateLimit {
  /** Counter family, e.g. 'captcha'; routes sharing a bucket share the allowance. */
  bucket: string;
  limit: number;
  windowMs: number;
  /** Whom to count: the client IP (the default) or a key taken from the request. */
  key?: 'ip' | ((request: FastifyRequest) => string);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Hits allowed per window; more answer 429 COMMON_RATE_LIMITED with retry-after. */
    rateLimit?: RouteRateLimit;
  }
}

/**
 * Per-route rate limits declared next to the route's access: `config: { rateLimit: {...} }`.
 * Enforced in preHandler, after the access guard registered before it, so a key function can use
 * the parsed body or the caller (request.principal). Counters live in the database (RateLimiter),
 * shared by every API process. The client IP is Fastify's request.ip, which honours
 * X-Forwarded-For because the app trusts its proxy: deploy behind one that sets it.
 */
export function registerRateLimit(app: FastifyInstance, limiter: RateLimiter): void {
  app.addHook('preHandler', async (request, reply) => {
    const rule = request.routeOptions.config.rateLimit;
    if (!rule) return;
    const key = typeof rule.key === 'function' ? rule.key(request) : request.ip;
    const result = await limiter.hit(rule.bucket, key, rule.limit, rule.windowMs);
    if (result.allowed) return;
    reply.header('retry-after', String(Math.max(1, Math.ceil(result.retryAfterMs / 1000))));
    throw new AppError('COMMON_RATE_LIMITED');
  });
}
