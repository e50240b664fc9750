import { PERMISSIONS, queueConditionsSchema, queuePauseIdSchema, queueSuspendSchema } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const QUEUES = { access: PERMISSIONS.EMAIL_SEND };

/**
 * Queue management (console-spec §7 "/mail/queues: POST getQueueDetailList, suspend, resume,
 * delete, recoverPausedQueue"), under code 12. Every call answers 201; the console keeps the
 * list and recover calls silent (§8). getQueueDetailList answers the queues in `data` (the rows
 * of §3) and the account's current pauses in `pauses`.
 */
export function queuesRoutes(app: FastifyInstance, core: Core): void {
  const queues = core.queues;

  app.post(
    '/v3/api/mail/queues/getQueueDetailList',
    { config: { ...QUEUES, viewing: true } },
    async (request, reply) => {
      const filter = queueConditionsSchema.parse(request.body ?? {});
      const { queues: rows, pauses } = await queues.list(callerOf(request), filter);
      return reply.status(201).send({ data: rows, pauses });
    },
  );

  app.post('/v3/api/mail/queues/suspend', { config: QUEUES }, async (request, reply) => {
    const input = queueSuspendSchema(Date.now()).parse(request.body ?? {});
    return reply.status(201).send({ data: await queues.suspend(callerOf(request), input) });
  });

  app.post('/v3/api/mail/queues/resume', { config: QUEUES }, async (request, reply) => {
    const conditions = queueConditionsSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await queues.resume(callerOf(request), conditions) });
  });

  app.post('/v3/api/mail/queues/delete', { config: QUEUES }, async (request, reply) => {
    const conditions = queueConditionsSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await queues.deleteQueued(callerOf(request), conditions) });
  });

  app.post('/v3/api/mail/queues/recoverPausedQueue', { config: QUEUES }, async (request, reply) => {
    const { pauseId } = queuePauseIdSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await queues.recover(callerOf(request), pauseId) });
  });
}
