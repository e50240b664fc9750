import {
  blockAddSchema,
  interceptRuleInputSchema,
  PERMISSIONS,
  type SuppressionListQuery,
  suppressionImportSchema,
  suppressionListQuerySchema,
  unsubscribeAddSchema,
} from '@herald/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import type { DeletableList } from '../../core/suppression/suppression-lists.service.ts';
import type { SuppressionEntryList } from '../../db/suppression-schema.ts';
import { callerOf } from '../context.ts';

const RESPONSE = { access: PERMISSIONS.EMAIL_RESPONSE };
const DOWNLOAD = { access: PERMISSIONS.EMAIL_RESPONSE, download: true };
const idParam = z.object({ id: z.coerce.number().int().positive() });

/** Each console path of console-spec §7 "Data and reports" and the list behind it. */
const PATHS: { path: string; list: SuppressionEntryList; file: string }[] = [
  { path: 'bounce', list: 'bounce', file: 'bounces' },
  { path: 'complaint', list: 'spam', file: 'spam-reports' },
  { path: 'unsubscribes', list: 'unsubscribe', file: 'unsubscribes' },
  { path: 'block', list: 'user_defined', file: 'block-list' },
];
const DELETABLE = new Set<SuppressionEntryList>(['bounce', 'unsubscribe', 'user_defined']);

/**
 * The account's suppression lists (`/data/bounce|complaint|unsubscribes|block`) and custom
 * interception rules (`/data/block/rules`), under code 11 (email delivery response). Adding is
 * allowed where a user decides (unsubscribes, block list, rules); bounce and spam entries come
 * from delivery outcomes and complaints. Exports are downloads: not for view-only callers.
 */
export function suppressionRoutes(app: FastifyInstance, core: Core): void {
  const lists = core.suppressionLists;
  const query = (request: FastifyRequest): SuppressionListQuery =>
    suppressionListQuerySchema.parse(request.query ?? {});

  for (const { path, list, file } of PATHS) {
    const base = `/v3/api/data/${path}`;

    app.get(base, { config: RESPONSE }, async (request) => {
      const { rows, total } = await lists.list(callerOf(request), list, query(request));
      return { data: rows, total };
    });

    app.get(`${base}/export`, { config: DOWNLOAD }, async (request, reply: FastifyReply) => {
      const csv = await lists.exportCsv(callerOf(request), list, query(request));
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file}-${day}.csv"`)
        .send(csv);
    });

    if (DELETABLE.has(list)) {
      app.delete(`${base}/:id`, { config: RESPONSE }, async (request, reply) => {
        await lists.remove(callerOf(request), list as DeletableList, idParam.parse(request.params).id);
        return reply.status(204).send();
      });
    }
  }

  app.post('/v3/api/data/unsubscribes', { config: RESPONSE }, async (request, reply) => {
    const input = unsubscribeAddSchema.parse(request.body ?? {});
    const scope = { apiUserId: input.apiUserId, labelId: input.labelId };
    return reply
      .status(201)
      .send({ data: await lists.add(callerOf(request), 'unsubscribe', input.addresses, scope) });
  });

  app.post('/v3/api/data/block', { config: RESPONSE }, async (request, reply) => {
    const input = blockAddSchema.parse(request.body ?? {});
    return reply
      .status(201)
      .send({ data: await lists.add(callerOf(request), 'user_defined', input.addresses) });
  });

  app.post('/v3/api/data/unsubscribes/import', { config: RESPONSE }, async (request, reply) => {
    const input = suppressionImportSchema.parse(request.body ?? {});
    const scope = { apiUserId: input.apiUserId, labelId: input.labelId };
    return reply
      .status(201)
      .send({ data: await lists.importFile(callerOf(request), 'unsubscribe', input, scope) });
  });

  app.post('/v3/api/data/block/import', { config: RESPONSE }, async (request, reply) => {
    const input = suppressionImportSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await lists.importFile(callerOf(request), 'user_defined', input) });
  });

  app.get('/v3/api/data/block/rules', { config: RESPONSE }, async (request) => ({
    data: await lists.rules(callerOf(request)),
  }));

  app.post('/v3/api/data/block/rules', { config: RESPONSE }, async (request, reply) => {
    const input = interceptRuleInputSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await lists.addRule(callerOf(request), input) });
  });

  app.delete('/v3/api/data/block/rules/:id', { config: RESPONSE }, async (request, reply) => {
    await lists.removeRule(callerOf(request), idParam.parse(request.params).id);
    return reply.status(204).send();
  });
}
