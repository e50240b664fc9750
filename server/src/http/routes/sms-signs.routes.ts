import fastifyMultipart from '@fastify/multipart';
import {
  AppError,
  PERMISSIONS,
  SMS_UPLOAD_MAX_BYTES,
  smsSignCheckQuerySchema,
  smsSignIdSchema,
  smsSignInputSchema,
  smsSignListQuerySchema,
  smsUploadPurposeSchema,
} from '@herald/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import type { StoredFile } from '../../core/uploads/uploads.service.ts';
import { callerOf } from '../context.ts';

const SEND = { access: PERMISSIONS.SMS_SEND };
const idParam = z.object({ id: smsSignIdSchema });
const uploadQuery = z.object({ purpose: smsUploadPurposeSchema });

/**
 * SMS signatures (console `/s_sendRelative/sign`, code 18): list by status with paging, one,
 * create and change (both wait for review again), delete, and the name check the form makes as
 * the user types. The files they name are uploaded first, one per multipart call, to
 * `/sms/uploads` (also the SMS filing's), and read back there for previews.
 */
export function smsSignsRoutes(app: FastifyInstance, core: Core): void {
  const signs = core.smsSigns;
  const base = '/v3/api/sms/smsSigns';

  app.get(base, { config: SEND }, async (request) => ({
    data: await signs.list(callerOf(request), smsSignListQuerySchema.parse(request.query ?? {})),
  }));

  app.get(`${base}/check`, { config: SEND }, async (request) => ({
    data: await signs.check(
      callerOf(request),
      smsSignCheckQuerySchema.parse(request.query ?? {}),
      request.lang,
    ),
  }));

  app.get(`${base}/:id`, { config: SEND }, async (request) => ({
    data: await signs.get(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post(base, { config: SEND }, async (request, reply) => {
    const input = smsSignInputSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await signs.create(callerOf(request), input) });
  });

  app.put(`${base}/:id`, { config: SEND }, async (request) => {
    const { id } = idParam.parse(request.params);
    const input = smsSignInputSchema.parse(request.body ?? {});
    return { data: await signs.update(callerOf(request), id, input) };
  });

  app.delete(`${base}/:id`, { config: SEND }, async (request, reply) => {
    await signs.remove(callerOf(request), idParam.parse(request.params).id);
    return reply.status(204).send();
  });

  app.get('/v3/api/sms/uploads/:id', { config: SEND }, async (request, reply) =>
    sendFile(reply, await core.smsUploads.open(callerOf(request), idParam.parse(request.params).id)),
  );

  // Multipart only here: the console API elsewhere takes JSON and forms.
  void app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: SMS_UPLOAD_MAX_BYTES, files: 1, fields: 5, parts: 6 },
    });
    scope.post('/v3/api/sms/uploads', { config: SEND }, async (request, reply) => {
      const { purpose } = uploadQuery.parse(request.query ?? {});
      const part = await request.file();
      if (!part) throw new AppError('SMS_UPLOAD_MISSING');
      let content: Buffer;
      try {
        content = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError('SMS_UPLOAD_TOO_LARGE', { max: '2 MB' });
        }
        throw error;
      }
      const stored = await core.smsUploads.store(callerOf(request), purpose, {
        name: part.filename,
        content,
      });
      return reply.status(201).send({ data: stored });
    });
  });
}

/** An uploaded file as what its bytes showed it to be, shown in the browser rather than saved. */
export function sendFile(reply: FastifyReply, file: StoredFile) {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`)
    .header('cache-control', 'private, max-age=300')
    .send(file.content);
}
