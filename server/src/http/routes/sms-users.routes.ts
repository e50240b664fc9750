import { PERMISSIONS, smsKeyResetSchema, smsUserCreateSchema, smsUserIdSchema } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const SETTINGS = { access: PERMISSIONS.SMS_SETTINGS };
const idParam = z.object({ id: smsUserIdSchema });

/**
 * SMS_USERs (console-spec §7 `/sms/smsUsers`, screen `/s_sendSetting/empower`, code 19): list,
 * one, create (the SMS_KEY in this answer only) and the key reset (after a recent identity
 * verification). There is no edit or delete (product-spec §3).
 */
export function smsUsersRoutes(app: FastifyInstance, core: Core): void {
  const smsUsers = core.smsUsers;

  app.get('/v3/api/sms/smsUsers', { config: SETTINGS }, async (request) => ({
    data: await smsUsers.list(callerOf(request)),
  }));

  app.get('/v3/api/sms/smsUsers/:id', { config: SETTINGS }, async (request) => ({
    data: await smsUsers.get(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post('/v3/api/sms/smsUsers', { config: SETTINGS }, async (request, reply) => {
    const input = smsUserCreateSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await smsUsers.create(callerOf(request), input) });
  });

  app.post('/v3/api/sms/smsKeys', { config: SETTINGS }, async (request, reply) => {
    const input = smsKeyResetSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await smsUsers.resetKey(callerOf(request), input) });
  });
}
