import {
  PLATFORM_OPERATOR,
  SMS_TEMPLATE_STATUSES,
  smsTemplateIdSchema,
  templateIdSchema,
  templateRejectSchema,
  templateStatusSchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const OPERATOR = { access: PLATFORM_OPERATOR };
const idParam = z.object({ id: templateIdSchema });
const listQuery = z.object({ status: templateStatusSchema.default('reviewing') });
const smsIdParam = z.object({ id: smsTemplateIdSchema });
const smsListQuery = z.object({ status: z.enum(SMS_TEMPLATE_STATUSES).default('reviewing') });

/**
 * The operators' template review (/admin/templates): only users of the platform's own account
 * pass the guard; customers get 403. Lists span every account, by design. Email templates are
 * under /admin/templates, SMS, voice and MMS ones under /admin/templates/sms (their ids are
 * another table's); the review screen shows both in one list.
 */
export function adminTemplatesRoutes(app: FastifyInstance, core: Core): void {
  const review = core.templateReview;
  const base = '/v3/api/admin/templates';

  app.get(base, { config: OPERATOR }, async (request) => ({
    data: await review.list(listQuery.parse(request.query).status),
  }));

  const smsReview = core.smsTemplateReview;
  app.get(`${base}/sms`, { config: OPERATOR }, async (request) => ({
    data: await smsReview.list(smsListQuery.parse(request.query).status),
  }));

  app.get(`${base}/sms/:id`, { config: OPERATOR }, async (request) => ({
    data: await smsReview.detail(smsIdParam.parse(request.params).id),
  }));

  app.post(`${base}/sms/:id/approve`, { config: OPERATOR }, async (request) => ({
    data: await smsReview.approve(callerOf(request), smsIdParam.parse(request.params).id),
  }));

  app.post(`${base}/sms/:id/reject`, { config: OPERATOR }, async (request) => {
    const { id } = smsIdParam.parse(request.params);
    const { reason } = templateRejectSchema.parse(request.body);
    return { data: await smsReview.reject(callerOf(request), id, reason) };
  });

  app.get(`${base}/:id`, { config: OPERATOR }, async (request) => ({
    data: await review.detail(idParam.parse(request.params).id),
  }));

  app.post(`${base}/:id/approve`, { config: OPERATOR }, async (request) => ({
    data: await review.approve(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post(`${base}/:id/reject`, { config: OPERATOR }, async (request) => {
    const { id } = idParam.parse(request.params);
    const { reason } = templateRejectSchema.parse(request.body);
    return { data: await review.reject(callerOf(request), id, reason) };
  });
}
