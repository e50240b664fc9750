import {
  adminAccountIdSchema,
  PERMISSIONS,
  PLATFORM_OPERATOR,
  smsGatewayCapSchema,
  smsGatewaySettingsSchema,
  smsGatewayUserCreateSchema,
  smsGatewayUserIdSchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const SETTINGS = { access: PERMISSIONS.SMS_SETTINGS };
const OPERATOR = { access: PLATFORM_OPERATOR };
const idParam = z.object({ id: smsGatewayUserIdSchema });
const accountParam = z.object({ id: adminAccountIdSchema });

/**
 * Gateway users (screen `/s_sendSetting/empower` beside SMS_USERs, code 19): the CMPP_USERs and
 * SMPP system ids customers' systems log in to Herald's gateway with. List (with the account's
 * cap), create and reset (the secret in that answer only; a reset after a recent identity
 * verification), change the allowed addresses, window and rate, delete. The operator sets an
 * account's cap.
 */
export function smsGatewayUsersRoutes(app: FastifyInstance, core: Core): void {
  const users = core.smsGatewayUsers;
  const base = '/v3/api/sms/gatewayUsers';

  app.get(base, { config: SETTINGS }, async (request) => ({ data: await users.list(callerOf(request)) }));

  app.post(base, { config: SETTINGS }, async (request, reply) => {
    const input = smsGatewayUserCreateSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await users.create(callerOf(request), input) });
  });

  app.put(`${base}/:id`, { config: SETTINGS }, async (request) => {
    const { id } = idParam.parse(request.params);
    const input = smsGatewaySettingsSchema.parse(request.body ?? {});
    return { data: await users.update(callerOf(request), id, input) };
  });

  app.post(`${base}/:id/secret`, { config: SETTINGS }, async (request, reply) => {
    const { id } = idParam.parse(request.params);
    return reply.status(201).send({ data: await users.resetSecret(callerOf(request), id) });
  });

  app.delete(`${base}/:id`, { config: SETTINGS }, async (request) => {
    await users.remove(callerOf(request), idParam.parse(request.params).id);
    return { data: null };
  });

  app.put('/v3/api/admin/accounts/:id/gatewayUserCap', { config: OPERATOR }, async (request) => {
    const { id } = accountParam.parse(request.params);
    const { max } = smsGatewayCapSchema.parse(request.body ?? {});
    return { data: await users.setCap(callerOf(request), id, max) };
  });
}
