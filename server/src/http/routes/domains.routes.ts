import type { DkimConfigView, DomainView } from '@herald/shared';
import {
  domainCreateSchema,
  domainIdSchema,
  domainListQuerySchema,
  domainUpdateSchema,
  PERMISSIONS,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import type { DomainsService } from '../../core/domains/domains.service.ts';
import { callerOf } from '../context.ts';

const SETTINGS = { access: PERMISSIONS.EMAIL_SETTINGS };
const idParam = z.object({ domainId: domainIdSchema });
const idQuery = z.object({ domainId: domainIdSchema });

/**
 * Sending domains (console-spec §7 "/config/domains", "/config/domainConfigs"), all under code 13.
 * `domainConfigs` are views of one domain's records: `dkim` the key record to publish with its
 * state, `dmarc` the suggested policy record with its state, `safeDkim` the signing key in use
 * (RSA, 2048 bits, its selector), whose POST starts a rotation to a new key under a new selector
 * (the current key keeps signing until the new record is found in DNS) and whose DELETE cancels
 * it. `verify` queries DNS now instead of waiting for the periodic check.
 */
export function domainsRoutes(app: FastifyInstance, core: Core): void {
  const domains = core.domains;

  app.get('/v3/api/config/domains', { config: SETTINGS }, async (request) => ({
    data: await domains.list(callerOf(request), domainListQuerySchema.parse(request.query)),
  }));

  app.get('/v3/api/config/domains/all', { config: SETTINGS }, async (request) => ({
    data: await domains.all(callerOf(request)),
  }));

  app.get('/v3/api/config/domains/all/ok', { config: SETTINGS }, async (request) => ({
    data: await domains.all(callerOf(request), true),
  }));

  app.get('/v3/api/config/domains/:domainId', { config: SETTINGS }, async (request) => ({
    data: await domains.get(callerOf(request), idParam.parse(request.params).domainId),
  }));

  app.post('/v3/api/config/domains', { config: SETTINGS }, async (request, reply) => {
    const { name } = domainCreateSchema.parse(request.body);
    return reply.status(201).send({ data: await domains.add(callerOf(request), name) });
  });

  app.patch('/v3/api/config/domains/edited/:domainId', { config: SETTINGS }, async (request) => {
    const { domainId } = idParam.parse(request.params);
    const { name } = domainUpdateSchema.parse(request.body);
    return { data: await domains.rename(callerOf(request), domainId, name) };
  });

  app.delete('/v3/api/config/domains/:domainId', { config: SETTINGS }, async (request, reply) => {
    await domains.remove(callerOf(request), idParam.parse(request.params).domainId);
    return reply.status(204).send();
  });

  app.post('/v3/api/config/domains/verify/:domainId', { config: SETTINGS }, async (request) => ({
    data: await domains.verify(callerOf(request), idParam.parse(request.params).domainId),
  }));

  app.get('/v3/api/config/domainConfigs/dkim', { config: SETTINGS }, async (request) => {
    const view = await domains.get(callerOf(request), idQuery.parse(request.query).domainId);
    return { data: dkimConfig(domains, view) };
  });

  app.get('/v3/api/config/domainConfigs/dmarc', { config: SETTINGS }, async (request) => {
    const view = await domains.get(callerOf(request), idQuery.parse(request.query).domainId);
    const record = view.records.find((r) => r.kind === 'dmarc');
    return { data: { domainId: view.id, name: view.name, record } };
  });

  app.get('/v3/api/config/domainConfigs/safeDkim', { config: SETTINGS }, async (request) => {
    const view = await domains.get(callerOf(request), idQuery.parse(request.query).domainId);
    return { data: safeDkim(domains, view) };
  });

  app.post('/v3/api/config/domainConfigs/safeDkim', { config: SETTINGS }, async (request) => {
    const { domainId } = idQuery.parse(request.body);
    return { data: safeDkim(domains, await domains.rotateDkim(callerOf(request), domainId)) };
  });

  app.delete('/v3/api/config/domainConfigs/safeDkim', { config: SETTINGS }, async (request) => {
    const { domainId } = idQuery.parse(request.query);
    return { data: safeDkim(domains, await domains.cancelDkimRotation(callerOf(request), domainId)) };
  });
}

/** The key in use and the record that publishes it. */
function dkimConfig(domains: DomainsService, view: DomainView): DkimConfigView {
  const record = view.records.find((r) => r.kind === 'dkim');
  return { domainId: view.id, name: view.name, ...domains.dkimInfo(view), record };
}

/** The key in use and, during a rotation, the new record waiting to be published. */
function safeDkim(domains: DomainsService, view: DomainView) {
  const record = view.records.find((r) => r.kind === 'dkim');
  return {
    domainId: view.id,
    name: view.name,
    ...domains.dkimInfo(view),
    published: record?.status === 'ok',
    record,
    next: view.pendingDkim,
  };
}
