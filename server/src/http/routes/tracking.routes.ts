import { PUBLIC } from '@herald/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Core } from '../../compose.ts';
import { answerTracking } from '../tracking/tracking-hit.ts';

/**
 * The open pixel and click redirect on Herald's HTTP port (public, no login, outside /v3): the
 * platform's tracking URL and custom tracking domains (whatever Host they arrive with) both
 * land here. HEAD is answered by the same routes and recorded as a machine's hit.
 */
export function trackingRoutes(app: FastifyInstance, core: Core): void {
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const answer = await answerTracking(core, {
      method: request.method,
      path: request.url,
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? '',
    });
    return reply.status(answer.status).headers(answer.headers).send(answer.body);
  };
  app.get('/t/o/:token', { config: { access: PUBLIC } }, handle);
  app.get('/t/c/:token', { config: { access: PUBLIC } }, handle);
  app.get('/s/:code', { config: { access: PUBLIC } }, handle);
}
