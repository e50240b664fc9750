import {
  PERMISSIONS,
  subscriptionIdSchema,
  subscriptionInputSchema,
  subscriptionQuerySchema,
  subscriptionUpdateSchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const SEND = { access: PERMISSIONS.EMAIL_SEND };
const BASE = '/v3/api/subInvite';
const idParam = z.object({ id: subscriptionIdSchema });

/**
 * Email subscriptions (console `/sendRelative/subscription`, `add`, `edit`, `config`; code 12 as
 * the address lists they fill; console-spec §7 `/subInvite/*`): the account's subscriptions with
 * paging and a name search, one, create, change, delete. Another account's is a 404.
 */
export function subscriptionsRoutes(app: FastifyInstance, core: Core): void {
  const subscriptions = core.subscriptions;

  app.get(BASE, { config: SEND }, async (request) => {
    const query = subscriptionQuerySchema.parse(request.query ?? {});
    return {
      data: await subscriptions.list(callerOf(request), {
        name: query.name,
        offset: (query.pageNum - 1) * query.pageSize,
        limit: query.pageSize,
      }),
    };
  });

  app.get(`${BASE}/:id`, { config: SEND }, async (request) => ({
    data: await subscriptions.get(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post(BASE, { config: SEND }, async (request, reply) => {
    const input = subscriptionInputSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await subscriptions.create(callerOf(request), input) });
  });

  app.put(`${BASE}/:id`, { config: SEND }, async (request) => {
    const { id } = idParam.parse(request.params);
    const input = subscriptionUpdateSchema.parse(request.body ?? {});
    return { data: await subscriptions.update(callerOf(request), id, input) };
  });

  app.delete(`${BASE}/:id`, { config: SEND }, async (request, reply) => {
    await subscriptions.remove(callerOf(request), idParam.parse(request.params).id);
    return reply.status(204).send();
  });
}
