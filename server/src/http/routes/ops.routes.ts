import { type HealthView, PUBLIC } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';

/**
 * Liveness, readiness and metrics: served by every process, whatever its roles, so an
 * orchestrator can probe workers and SMTP processes the same way as the API.
 */
export function opsRoutes(app: FastifyInstance, core: Core): void {
  const healthy: HealthView = { status: 'ok' };
  app.get('/healthz', { config: { access: PUBLIC }, logLevel: 'warn' }, async () => healthy);

  app.get('/readyz', { config: { access: PUBLIC }, logLevel: 'warn' }, async (_request, reply) => {
    const checks = await core.readiness();
    const ready = Object.values(checks).every((c) => c === 'ok');
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks });
  });

  app.get('/metrics', { config: { access: PUBLIC }, logLevel: 'warn' }, async (_request, reply) => {
    const body = await core.metrics.registry.metrics();
    return reply.type(core.metrics.registry.contentType).send(body);
  });
}
