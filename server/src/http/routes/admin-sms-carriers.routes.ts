import {
  PLATFORM_OPERATOR,
  SMS_CARRIER_REFRESH_MS,
  type SmsCarriersList,
  smsCarrierCreateSchema,
  smsCarrierNameParamSchema,
  smsCarrierUpdateSchema,
  smsRouteIdParamSchema,
  smsRouteInputSchema,
} from '@herald/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Core } from '../../compose.ts';

const OPERATOR = { access: PLATFORM_OPERATOR };

/**
 * The operators' SMS carriers and routes (/admin/smsCarriers, issue 20): the same service as the
 * CLI's `sms:*` commands, so the rules and the sealing of passwords exist once. Only users of the
 * platform's own account pass the guard; customers get 403. No answer carries a password.
 */
export function adminSmsCarriersRoutes(app: FastifyInstance, core: Core): void {
  const carriers = core.smsCarriers;
  const base = '/v3/api/admin/smsCarriers';
  const nameOf = (request: FastifyRequest) => smsCarrierNameParamSchema.parse(request.params).name;

  app.get(
    base,
    { config: OPERATOR },
    async (): Promise<{ data: SmsCarriersList }> => ({
      data: { carriers: await carriers.list(), refreshSeconds: SMS_CARRIER_REFRESH_MS / 1000 },
    }),
  );

  app.post(base, { config: OPERATOR }, async (request, reply) => {
    const input = smsCarrierCreateSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await carriers.create(input) });
  });

  app.put(`${base}/:name`, { config: OPERATOR }, async (request) => {
    const changes = smsCarrierUpdateSchema.parse(request.body ?? {});
    return { data: await carriers.update(nameOf(request), changes) };
  });

  app.post(`${base}/:name/enable`, { config: OPERATOR }, async (request) => ({
    data: await carriers.setEnabled(nameOf(request), true),
  }));

  app.post(`${base}/:name/disable`, { config: OPERATOR }, async (request) => ({
    data: await carriers.setEnabled(nameOf(request), false),
  }));

  app.delete(`${base}/:name`, { config: OPERATOR }, async (request, reply) => {
    await carriers.remove(nameOf(request));
    return reply.status(204).send();
  });

  app.post(`${base}/:name/routes`, { config: OPERATOR }, async (request, reply) => {
    const route = smsRouteInputSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await carriers.addRoute({ carrier: nameOf(request), ...route }) });
  });

  app.delete(`${base}/:name/routes/:routeId`, { config: OPERATOR }, async (request) => {
    const { name, routeId } = smsRouteIdParamSchema.parse(request.params);
    return { data: await carriers.removeRoute(name, routeId) };
  });
}
