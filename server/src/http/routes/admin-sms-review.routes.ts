import {
  PLATFORM_OPERATOR,
  SMS_SIGN_STATUSES,
  smsComplianceRejectSchema,
  smsFilingReviewQuerySchema,
  smsSignIdSchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';
import { sendFile } from './sms-signs.routes.ts';

const OPERATOR = { access: PLATFORM_OPERATOR };
const idParam = z.object({ id: smsSignIdSchema });
const signsQuery = z.object({ status: z.enum(SMS_SIGN_STATUSES).default('reviewing') });

/**
 * The operators' review of SMS signatures and filings (/admin/smsReview, issue 20): lists span
 * every account, with the account's name, every field and the files; pass, reject with a required
 * reason, and disable an approved filing. Only platform operators pass the guard; customers get 403.
 */
export function adminSmsReviewRoutes(app: FastifyInstance, core: Core): void {
  const signs = core.smsSignReview;
  const filings = core.smsFilingReview;

  app.get('/v3/api/admin/smsSigns', { config: OPERATOR }, async (request) => ({
    data: await signs.list(signsQuery.parse(request.query ?? {}).status),
  }));

  app.get('/v3/api/admin/smsSigns/:id', { config: OPERATOR }, async (request) => ({
    data: await signs.get(idParam.parse(request.params).id),
  }));

  app.post('/v3/api/admin/smsSigns/:id/pass', { config: OPERATOR }, async (request) => ({
    data: await signs.pass(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post('/v3/api/admin/smsSigns/:id/reject', { config: OPERATOR }, async (request) => {
    const { id } = idParam.parse(request.params);
    const { reason } = smsComplianceRejectSchema.parse(request.body ?? {});
    return { data: await signs.reject(callerOf(request), id, reason) };
  });

  app.get('/v3/api/admin/smsFilings', { config: OPERATOR }, async (request) => ({
    data: await filings.list(smsFilingReviewQuerySchema.parse(request.query ?? {}).status),
  }));

  app.post('/v3/api/admin/smsFilings/:id/pass', { config: OPERATOR }, async (request) => ({
    data: await filings.pass(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post('/v3/api/admin/smsFilings/:id/reject', { config: OPERATOR }, async (request) => {
    const { id } = idParam.parse(request.params);
    const { reason } = smsComplianceRejectSchema.parse(request.body ?? {});
    return { data: await filings.reject(callerOf(request), id, reason) };
  });

  app.post('/v3/api/admin/smsFilings/:id/disable', { config: OPERATOR }, async (request) => ({
    data: await filings.disable(callerOf(request), idParam.parse(request.params).id),
  }));

  app.get('/v3/api/admin/smsUploads/:id', { config: OPERATOR }, async (request, reply) =>
    sendFile(reply, await core.smsUploads.openForReview(idParam.parse(request.params).id)),
  );
}
