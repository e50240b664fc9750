import {
  PERMISSIONS,
  templateIdSchema,
  templateIdsSchema,
  templateInputSchema,
  templateInvokeNameSchema,
  templateListQuerySchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const SEND = { access: PERMISSIONS.EMAIL_SEND };
const idParam = z.object({ id: templateIdSchema });
const invokeNameQuery = z.object({
  invokeName: templateInvokeNameSchema,
  id: templateIdSchema.optional(),
});

/**
 * Email templates (console-spec §7 `/mail/templates`), all under code 12: list, all (for the
 * pickers of other screens), detail, html, create, update, copy, delete, batch delete, the
 * invoke-name existence check (§5), and the review steps commitVerify / cancelVerify.
 */
export function templatesRoutes(app: FastifyInstance, core: Core): void {
  const templates = core.templates;
  const base = '/v3/api/mail/templates';

  app.get(base, { config: SEND }, async (request) => ({
    data: await templates.list(callerOf(request), templateListQuerySchema.parse(request.query)),
  }));

  app.get(`${base}/all`, { config: SEND }, async (request) => ({
    data: (await templates.list(callerOf(request))).map((t) => ({
      id: t.id,
      name: t.name,
      invokeName: t.invokeName,
      templateType: t.templateType,
      status: t.status,
    })),
  }));

  app.get(`${base}/checkInvokeName`, { config: SEND }, async (request) => {
    const { invokeName, id } = invokeNameQuery.parse(request.query);
    return { data: { exists: await templates.invokeNameTaken(callerOf(request), invokeName, id) } };
  });

  app.get(`${base}/html/:id`, { config: SEND }, async (request) => {
    const t = await templates.detail(callerOf(request), idParam.parse(request.params).id);
    return { data: { id: t.id, name: t.name, subject: t.subject, html: t.html, variables: t.variables } };
  });

  app.get(`${base}/:id`, { config: SEND }, async (request) => ({
    data: await templates.detail(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post(base, { config: SEND }, async (request, reply) => {
    const input = templateInputSchema.parse(request.body);
    return reply.status(201).send({ data: await templates.create(callerOf(request), input) });
  });

  app.put(`${base}/:id`, { config: SEND }, async (request) => {
    const { id } = idParam.parse(request.params);
    return { data: await templates.update(callerOf(request), id, templateInputSchema.parse(request.body)) };
  });

  app.post(`${base}/copy/:id`, { config: SEND }, async (request, reply) => {
    const copy = await templates.copy(callerOf(request), idParam.parse(request.params).id);
    return reply.status(201).send({ data: copy });
  });

  /** Batch: deletes several templates at once (the list's multi-select). */
  app.post(`${base}/batch/delete`, { config: SEND }, async (request) => {
    const { ids } = templateIdsSchema.parse(request.body);
    return { data: { count: await templates.removeMany(callerOf(request), ids) } };
  });

  app.delete(`${base}/:id`, { config: SEND }, async (request, reply) => {
    await templates.remove(callerOf(request), idParam.parse(request.params).id);
    return reply.status(204).send();
  });

  app.post(`${base}/commitVerify/:id`, { config: SEND }, async (request) => ({
    data: await templates.commitVerify(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post(`${base}/cancelVerify/:id`, { config: SEND }, async (request) => ({
    data: await templates.cancelVerify(callerOf(request), idParam.parse(request.params).id),
  }));
}
