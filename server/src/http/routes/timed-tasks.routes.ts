import fastifyMultipart from '@fastify/multipart';
import {
  AppError,
  AUTHENTICATED,
  PERMISSIONS,
  TIMED_TASK_FILES_MAX_BYTES,
  timedTaskIdSchema,
  timedTaskInputSchema,
  timedTaskQuerySchema,
  timedTaskUploadProgressQuerySchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { attachmentType } from '../apiv2/mail.apiv2.ts';
import { callerOf } from '../context.ts';

const SEND = { access: PERMISSIONS.EMAIL_SEND };
const TASKS = '/v3/api/task/taskTemplates';
const taskParam = z.object({ id: timedTaskIdSchema });
const uploadQuery = z.object({ key: timedTaskUploadProgressQuerySchema.shape.key.optional() });

/**
 * Timed tasks (console `/sendRelative/timedTask`, `add`, `edit`, `detail`; code 12 as the other
 * email sending screens; console-spec §7 `/task/taskTemplates` with `upload` and
 * `upload/progress`): the account's tasks with their status and progress, one, what the form
 * chooses from, create, change and cancel before the task starts, delete once its sending has
 * ended; attachments uploaded one per multipart call before the task is saved, the upload's
 * received bytes readable by the key the console gave it. `/systemParam/taskPrivate` tells the
 * console whether users see only their own tasks.
 */
export function timedTasksRoutes(app: FastifyInstance, core: Core): void {
  const tasks = core.timedTasks;

  app.get('/v3/api/systemParam/taskPrivate', { config: { access: AUTHENTICATED } }, async (request) => ({
    data: await tasks.taskPrivate(callerOf(request)),
  }));

  app.get(TASKS, { config: SEND }, async (request) => ({
    data: await tasks.list(callerOf(request), timedTaskQuerySchema.parse(request.query ?? {}), request.lang),
  }));

  app.get(`${TASKS}/options`, { config: SEND }, async (request) => ({
    data: await tasks.options(callerOf(request)),
  }));

  app.get(`${TASKS}/upload/progress`, { config: SEND }, async (request) => {
    const { key } = timedTaskUploadProgressQuerySchema.parse(request.query ?? {});
    return { data: tasks.uploads.get(callerOf(request).accountId, key) };
  });

  app.get(`${TASKS}/:id`, { config: SEND }, async (request) => ({
    data: await tasks.get(callerOf(request), taskParam.parse(request.params).id, request.lang),
  }));

  app.post(TASKS, { config: SEND }, async (request, reply) => {
    const input = timedTaskInputSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await tasks.create(callerOf(request), input, request.lang) });
  });

  app.put(`${TASKS}/:id`, { config: SEND }, async (request) => {
    const { id } = taskParam.parse(request.params);
    const input = timedTaskInputSchema.parse(request.body ?? {});
    return { data: await tasks.update(callerOf(request), id, input, request.lang) };
  });

  app.post(`${TASKS}/:id/cancel`, { config: SEND }, async (request) => ({
    data: await tasks.cancel(callerOf(request), taskParam.parse(request.params).id, request.lang),
  }));

  app.delete(`${TASKS}/:id`, { config: SEND }, async (request, reply) => {
    await tasks.remove(callerOf(request), taskParam.parse(request.params).id);
    return reply.status(204).send();
  });

  // Multipart only here: the console API elsewhere takes JSON. The file is counted as it arrives.
  void app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: TIMED_TASK_FILES_MAX_BYTES, files: 1, fields: 5, parts: 6 },
    });
    scope.post(`${TASKS}/upload`, { config: SEND }, async (request, reply) => {
      const caller = callerOf(request);
      const { key } = uploadQuery.parse(request.query ?? {});
      if (key) tasks.uploads.start(caller.accountId, key, Number(request.headers['content-length'] ?? 0));
      try {
        const part = await request.file();
        if (!part) throw new AppError('TIMED_TASK_FILE_MISSING');
        const chunks: Buffer[] = [];
        for await (const chunk of part.file) {
          chunks.push(chunk as Buffer);
          if (key) tasks.uploads.add(caller.accountId, key, (chunk as Buffer).length);
        }
        if (part.file.truncated) throw new AppError('TIMED_TASK_FILES_TOO_LARGE');
        const stored = await tasks.upload(caller, {
          name: part.filename,
          contentType: attachmentType(part.filename, part.mimetype),
          content: Buffer.concat(chunks),
        });
        return reply.status(201).send({ data: stored });
      } finally {
        if (key) tasks.uploads.finish(caller.accountId, key);
      }
    });
  });
}
