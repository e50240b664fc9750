import {
  adminInvoicesQuerySchema,
  invoiceApplySchema,
  invoiceProfileSchema,
  invoiceRejectSchema,
  invoiceShipSchema,
  invoicesQuerySchema,
  PERMISSIONS,
  PLATFORM_OPERATOR,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const FINANCE = { access: PERMISSIONS.FINANCE };
const OPERATOR = { access: PLATFORM_OPERATOR };
const idParam = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
const BILLS = '/v3/api/order/billTicketOrders';
const ADMIN = '/v3/api/admin/invoices';

/**
 * Invoices (fapiao; issue 18; console `/accountSetting/financialMangement/createTicketInfo`,
 * `/ticket`, `/applyTicket`): the account's invoice profile (`/user/invoice`), its invoices, the
 * apply screen's figures, an application, a resubmission after a rejection and the customer's
 * void. The operators' calls (`/admin/invoices`): every account's invoices with filters, and
 * marking one invoiced, shipped (express number), e-mailed, rejected (reason) or voided.
 */
export function invoicesRoutes(app: FastifyInstance, core: Core): void {
  app.get('/v3/api/user/invoice', { config: FINANCE }, async (request) => ({
    data: await core.invoices.profile(callerOf(request)),
  }));

  app.put('/v3/api/user/invoice', { config: FINANCE }, async (request) => ({
    data: await core.invoices.saveProfile(callerOf(request), invoiceProfileSchema.parse(request.body ?? {})),
  }));

  app.get(`${BILLS}/summary`, { config: FINANCE }, async (request) => ({
    data: await core.invoices.summary(callerOf(request)),
  }));

  app.get(BILLS, { config: FINANCE }, async (request) => ({
    data: await core.invoices.list(callerOf(request), invoicesQuerySchema.parse(request.query ?? {})),
  }));

  app.get(`${BILLS}/:id`, { config: FINANCE }, async (request) => ({
    data: await core.invoices.get(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post(BILLS, { config: FINANCE }, async (request, reply) => {
    const input = invoiceApplySchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await core.invoices.apply(callerOf(request), input) });
  });

  app.post(`${BILLS}/:id/resubmit`, { config: FINANCE }, async (request) => {
    const { id } = idParam.parse(request.params);
    return {
      data: await core.invoices.resubmit(callerOf(request), id, invoiceApplySchema.parse(request.body ?? {})),
    };
  });

  app.post(`${BILLS}/:id/void`, { config: FINANCE }, async (request) => ({
    data: await core.invoices.voidOwn(callerOf(request), idParam.parse(request.params).id),
  }));

  app.get(ADMIN, { config: OPERATOR }, async (request) => ({
    data: await core.invoices.adminList(adminInvoicesQuerySchema.parse(request.query ?? {})),
  }));

  app.post(`${ADMIN}/:id/invoiced`, { config: OPERATOR }, async (request) => ({
    data: await core.invoices.markInvoiced(idParam.parse(request.params).id),
  }));

  app.post(`${ADMIN}/:id/shipped`, { config: OPERATOR }, async (request) => {
    const { id } = idParam.parse(request.params);
    return {
      data: await core.invoices.markShipped(id, invoiceShipSchema.parse(request.body ?? {}).expressNo),
    };
  });

  app.post(`${ADMIN}/:id/emailed`, { config: OPERATOR }, async (request) => ({
    data: await core.invoices.markEmailed(idParam.parse(request.params).id),
  }));

  app.post(`${ADMIN}/:id/reject`, { config: OPERATOR }, async (request) => {
    const { id } = idParam.parse(request.params);
    const { reason } = invoiceRejectSchema.parse(request.body ?? {});
    return { data: await core.invoices.reject(callerOf(request), id, reason) };
  });

  app.post(`${ADMIN}/:id/void`, { config: OPERATOR }, async (request) => ({
    data: await core.invoices.adminVoid(callerOf(request), idParam.parse(request.params).id),
  }));
}
