import fs from 'node:fs';
import fastifyMultipart from '@fastify/multipart';
import {
  AppError,
  type ErrorCode,
  LIST_IMPORT_MAX_BYTES,
  listImportIdSchema,
  listImportQuerySchema,
  type PermissionCode,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import type { ListImportsService } from '../../core/list-imports/list-imports.service.ts';
import { callerOf } from '../context.ts';

const importParam = z.object({ id: listImportIdSchema });
const listQuery = z.object({ listId: listImportIdSchema });

/**
 * The file import of a kind of list, under `base`: the upload (`POST base/upload?listId=`,
 * multipart, streamed to disk as it arrives, never whole into memory), its progress
 * (`GET base/upload/progress?importId=|listId=`), its cancel and its error report (a download:
 * view-only callers are refused and download verification applies).
 */
export function listImportRoutes(
  app: FastifyInstance,
  core: Core,
  options: {
    base: string;
    access: PermissionCode;
    imports: ListImportsService;
    missing: ErrorCode;
    tooLarge: ErrorCode;
  },
): void {
  const { base, imports } = options;
  const config = { access: options.access };

  app.get(`${base}/upload/progress`, { config }, async (request) => ({
    data: await imports.progress(
      callerOf(request),
      listImportQuerySchema.parse(request.query ?? {}),
      request.lang,
    ),
  }));

  app.post(`${base}/upload/:id/cancel`, { config }, async (request) => ({
    data: await imports.cancel(callerOf(request), importParam.parse(request.params).id, request.lang),
  }));

  app.get(`${base}/upload/:id/report`, { config: { ...config, download: true } }, async (request, reply) => {
    const session = callerOf(request);
    const { file, name } = await imports.report(session, importParam.parse(request.params).id);
    await core.sensitiveVerification.requireRecentVerification(session, { kind: 'download' });
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(fs.createReadStream(file));
  });

  void app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: LIST_IMPORT_MAX_BYTES + 1, files: 1, fields: 5, parts: 6 },
    });
    scope.post(`${base}/upload`, { config }, async (request, reply) => {
      const { listId } = listQuery.parse(request.query ?? {});
      const part = await request.file();
      if (!part) throw new AppError(options.missing);
      try {
        const started = await imports.start(callerOf(request), {
          listId,
          fileName: part.filename,
          content: part.file,
          lang: request.lang,
        });
        return reply.status(201).send({ data: started });
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError(options.tooLarge, { max: '100 MB' });
        }
        throw error;
      }
    });
  });
}
