import {
  PERMISSIONS,
  sslInputSchema,
  trackDomainInputSchema,
  trackDomainUpdateSchema,
  trackIdSchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const SETTINGS = { access: PERMISSIONS.EMAIL_SETTINGS };
const idParam = z.object({ id: trackIdSchema });

/**
 * Custom tracking domains (console-spec §7 "/trackDomains (CRUD, default, cname/check)") and
 * their HTTPS certificates ("/config/ssl"), under code 13. `cname/check` looks the CNAME up now;
 * `default/{id}` makes a verified domain the host of the account's tracking links.
 */
export function trackingDomainsRoutes(app: FastifyInstance, core: Core): void {
  const domains = core.trackingDomains;
  const certificates = core.sslCertificates;

  app.get('/v3/api/trackDomains', { config: SETTINGS }, async (request) => ({
    data: await domains.list(callerOf(request)),
  }));

  app.post('/v3/api/trackDomains', { config: SETTINGS }, async (request, reply) => {
    const input = trackDomainInputSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await domains.add(callerOf(request), input) });
  });

  app.patch('/v3/api/trackDomains/:id', { config: SETTINGS }, async (request) => {
    const { id } = idParam.parse(request.params);
    const input = trackDomainUpdateSchema.parse(request.body ?? {});
    return { data: await domains.update(callerOf(request), id, input) };
  });

  app.delete('/v3/api/trackDomains/:id', { config: SETTINGS }, async (request, reply) => {
    await domains.remove(callerOf(request), idParam.parse(request.params).id);
    return reply.status(204).send();
  });

  app.post('/v3/api/trackDomains/default/:id', { config: SETTINGS }, async (request) => ({
    data: await domains.setDefault(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post('/v3/api/trackDomains/cname/check/:id', { config: SETTINGS }, async (request) => ({
    data: await domains.checkCname(callerOf(request), idParam.parse(request.params).id),
  }));

  app.get('/v3/api/config/ssl', { config: SETTINGS }, async (request) => ({
    data: await certificates.list(callerOf(request)),
  }));

  app.post('/v3/api/config/ssl', { config: SETTINGS }, async (request, reply) => {
    const input = sslInputSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await certificates.add(callerOf(request), input) });
  });

  app.delete('/v3/api/config/ssl/:id', { config: SETTINGS }, async (request, reply) => {
    await certificates.remove(callerOf(request), idParam.parse(request.params).id);
    return reply.status(204).send();
  });
}
