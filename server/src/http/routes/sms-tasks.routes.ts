import {
  PERMISSIONS,
  smsTaskIdSchema,
  smsTaskInputSchema,
  smsTaskPreviewQuerySchema,
  smsTaskQuerySchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const SEND = { access: PERMISSIONS.SMS_SEND };
const TASKS = '/v3/api/sms/smsTasks';
const taskParam = z.object({ id: smsTaskIdSchema });

/**
 * SMS tasks (console `/s_sendRelative/task`, `task/taskOpt`, `task/taskPreivew`; code 18 as the
 * other SMS sending screens): the account's tasks with their progress, one, create (now or
 * scheduled), cancel before it starts, resend a finished task's failed messages, and the preview
 * of what a task would send.
 */
export function smsTasksRoutes(app: FastifyInstance, core: Core): void {
  const tasks = core.smsTasks;

  app.get(TASKS, { config: SEND }, async (request) => ({
    data: await tasks.list(callerOf(request), smsTaskQuerySchema.parse(request.query ?? {}), request.lang),
  }));

  app.get(`${TASKS}/preview`, { config: SEND }, async (request) => ({
    data: await tasks.preview(callerOf(request), smsTaskPreviewQuerySchema.parse(request.query ?? {})),
  }));

  app.get(`${TASKS}/:id`, { config: SEND }, async (request) => ({
    data: await tasks.get(callerOf(request), taskParam.parse(request.params).id, request.lang),
  }));

  app.post(TASKS, { config: SEND }, async (request, reply) => {
    const input = smsTaskInputSchema.parse(request.body ?? {});
    return reply
      .status(201)
      .send({ data: await tasks.create(callerOf(request), input, 'console', request.lang) });
  });

  app.post(`${TASKS}/:id/cancel`, { config: SEND }, async (request) => ({
    data: await tasks.cancel(callerOf(request), taskParam.parse(request.params).id, request.lang),
  }));

  app.post(`${TASKS}/:id/resend`, { config: SEND }, async (request, reply) =>
    reply.status(201).send({
      data: await tasks.resend(callerOf(request), taskParam.parse(request.params).id, request.lang),
    }),
  );
}
