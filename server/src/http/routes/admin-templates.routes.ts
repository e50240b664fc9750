import {
  PLATFORM_OPERATOR,
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

/**
 * The operators' template review (/admin/templates): only users of the platform's own account
 * pass the guard; customers get 403. Lists span every account, by design.
 */
export function adminTemplatesRoutes(app: FastifyInstance, core: Core): void {
  const review = core.templateReview;
  const base = '/v3/api/admin/templates';

  app.get(base, { config: OPERATOR }, async (request) => ({
    data: await review.list(listQuery.parse(request.query).status),
  }));

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
