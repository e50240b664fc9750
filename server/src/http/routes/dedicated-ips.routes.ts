import {
  DEDICATED_IP_STATUSES,
  dedicatedIpCostQuerySchema,
  dedicatedIpPurchaseSchema,
  PERMISSIONS,
  PLATFORM_OPERATOR,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const SETTINGS = { access: PERMISSIONS.EMAIL_SETTINGS };
const OPERATOR = { access: PLATFORM_OPERATOR };
const idParam = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

/**
 * Dedicated IPs (issue 18; console `/sendSetting/ipManager`, calls `/ipResources/*` and
 * `/config/independentIpInfo`): the account's purchases, the live cost, buying addresses for a
 * sending domain, and the addresses per domain with their A-record state. The operators' calls:
 * the address pool, every account's purchases, and assigning an address to a waiting purchase.
 */
export function dedicatedIpsRoutes(app: FastifyInstance, core: Core): void {
  app.get('/v3/api/ipResources', { config: SETTINGS }, async (request) => ({
    data: await core.dedicatedIps.list(callerOf(request)),
  }));

  app.get('/v3/api/ipResources/cost', { config: SETTINGS }, async (request) => ({
    data: await core.dedicatedIps.cost(
      callerOf(request),
      dedicatedIpCostQuerySchema.parse(request.query ?? {}),
    ),
  }));

  app.get('/v3/api/ipResources/:id', { config: SETTINGS }, async (request) => ({
    data: await core.dedicatedIps.get(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post('/v3/api/ipResources', { config: SETTINGS }, async (request, reply) => {
    const input = dedicatedIpPurchaseSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await core.dedicatedIps.purchase(callerOf(request), input) });
  });

  app.get('/v3/api/config/independentIpInfo', { config: SETTINGS }, async (request) => ({
    data: await core.dedicatedIps.independentIpInfo(callerOf(request)),
  }));

  app.get('/v3/api/admin/ipPool', { config: OPERATOR }, async () => ({
    data: await core.dedicatedIps.pool(),
  }));

  app.post('/v3/api/admin/ipPool', { config: OPERATOR }, async (request, reply) => {
    const { address } = z.object({ address: z.unknown() }).parse(request.body ?? {});
    return reply.status(201).send({ data: await core.dedicatedIps.addToPool(address) });
  });

  app.get('/v3/api/admin/dedicatedIps', { config: OPERATOR }, async (request) => {
    const { status } = z
      .object({ status: z.enum(DEDICATED_IP_STATUSES).optional().catch(undefined) })
      .parse(request.query ?? {});
    return { data: await core.dedicatedIps.all(status) };
  });

  app.post('/v3/api/admin/dedicatedIps/:id/assign', { config: OPERATOR }, async (request) => {
    const { id } = idParam.parse(request.params);
    const { address } = z.object({ address: z.unknown().optional() }).parse(request.body ?? {});
    return { data: await core.dedicatedIps.assign(id, address) };
  });
}
