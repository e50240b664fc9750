import {
  PERMISSIONS,
  smsTemplateIdSchema,
  smsTemplateInputSchema,
  smsTemplateListQuerySchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const SEND = { access: PERMISSIONS.SMS_SEND };
const idParam = z.object({ id: smsTemplateIdSchema });

/**
 * SMS, voice and MMS templates (console `/s_sendRelative/template`, code 18): list with filters
 * and paging, one, create, replace (back to unsubmitted), delete, submit for review, the preview
 * with the examples filled in, and the signatures the form may name. The operators' review is in
 * admin-templates.routes.ts beside the email templates'.
 */
export function smsTemplatesRoutes(app: FastifyInstance, core: Core): void {
  const templates = core.smsTemplates;
  const base = '/v3/api/sms/smsTemplates';

  app.get(base, { config: SEND }, async (request) => ({
    data: await templates.list(callerOf(request), smsTemplateListQuerySchema.parse(request.query ?? {})),
  }));

  app.get(`${base}/signs`, { config: SEND }, async (request) => ({
    data: await templates.signs(callerOf(request)),
  }));

  app.get(`${base}/:id`, { config: SEND }, async (request) => ({
    data: await templates.get(callerOf(request), idParam.parse(request.params).id),
  }));

  app.get(`${base}/:id/preview`, { config: SEND }, async (request) => ({
    data: await templates.preview(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post(base, { config: SEND }, async (request, reply) => {
    const input = smsTemplateInputSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await templates.create(callerOf(request), input) });
  });

  app.put(`${base}/:id`, { config: SEND }, async (request) => {
    const { id } = idParam.parse(request.params);
    const input = smsTemplateInputSchema.parse(request.body ?? {});
    return { data: await templates.update(callerOf(request), id, input) };
  });

  app.post(`${base}/:id/submit`, { config: SEND }, async (request) => ({
    data: await templates.submit(callerOf(request), idParam.parse(request.params).id),
  }));

  app.delete(`${base}/:id`, { config: SEND }, async (request, reply) => {
    await templates.remove(callerOf(request), idParam.parse(request.params).id);
    return reply.status(204).send();
  });
}
