import {
  PERMISSIONS,
  SENDER_CONFIG_LIST_KINDS,
  SENDER_CONFIG_REMOVABLE_KINDS,
  senderConfigIdSchema,
  senderConfigKindSchema,
  senderStatusInputSchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const SETTINGS = { access: PERMISSIONS.EMAIL_SETTINGS };
const kindParam = z.object({ kind: senderConfigKindSchema });
const listKindParam = z.object({
  kind: z.enum(SENDER_CONFIG_LIST_KINDS, { message: 'senderConfigKind' }),
  id: senderConfigIdSchema,
});
const removableKindParam = z.object({
  kind: z.enum(SENDER_CONFIG_REMOVABLE_KINDS, { message: 'senderConfigKind' }),
  id: senderConfigIdSchema,
});

/**
 * Sender configurations (console-spec §7 "/sendConfig/{mailfrom, from, ad, tls, nodisturb,
 * intercept, bounce, status}"), under code 13. GET a kind answers its switch and entries; POST
 * adds an entry (from, tls, nodisturb) or saves the kind's one entry; list entries are changed
 * and deleted by id, as is the smart-host relay (`relay`, Herald's own kind: issue 6 asks for a
 * relay per account); `status` reads and sets the on/off state of each kind.
 */
export function senderConfigsRoutes(app: FastifyInstance, core: Core): void {
  const configs = core.senderConfigs;

  app.get('/v3/api/sendConfig/status', { config: SETTINGS }, async (request) => ({
    data: await configs.switches(callerOf(request)),
  }));

  app.post('/v3/api/sendConfig/status', { config: SETTINGS }, async (request) => {
    const { kind, enabled } = senderStatusInputSchema.parse(request.body ?? {});
    return { data: await configs.setSwitch(callerOf(request), kind, enabled) };
  });

  app.get('/v3/api/sendConfig/:kind', { config: SETTINGS }, async (request) => ({
    data: await configs.get(callerOf(request), kindParam.parse(request.params).kind),
  }));

  app.post('/v3/api/sendConfig/:kind', { config: SETTINGS }, async (request, reply) => {
    const { kind } = kindParam.parse(request.params);
    return reply.status(201).send({ data: await configs.save(callerOf(request), kind, request.body ?? {}) });
  });

  app.patch('/v3/api/sendConfig/:kind/:id', { config: SETTINGS }, async (request) => {
    const { kind, id } = listKindParam.parse(request.params);
    return { data: await configs.update(callerOf(request), kind, id, request.body ?? {}) };
  });

  app.delete('/v3/api/sendConfig/:kind/:id', { config: SETTINGS }, async (request, reply) => {
    const { kind, id } = removableKindParam.parse(request.params);
    await configs.remove(callerOf(request), kind, id);
    return reply.status(204).send();
  });
}
